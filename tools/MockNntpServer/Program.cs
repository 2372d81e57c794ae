using System.Runtime.InteropServices;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Cli;

MockCommandLine commandLine;
try
{
    commandLine = MockCommandLine.Parse(args);
}
catch (ArgumentException e)
{
    Console.Error.WriteLine($"MockNntpServer: {e.Message}");
    Console.Error.WriteLine("Run with --help for the options.");
    return 2;
}
if (commandLine.Help)
{
    Console.WriteLine(MockCommandLine.Usage);
    return 0;
}

await using var server = new MockNntpServer(commandLine.Options);
try
{
    if (commandLine.SizeBytes > 0)
    {
        server.Store.AddGeneratedFile($"mock-{commandLine.SizeBytes / (1024 * 1024)}MB.bin", commandLine.SizeBytes, commandLine.SegmentSize);
    }
    foreach (var post in commandLine.Posts)
    {
        // Empty files in a posted directory are skipped (an article needs at least one byte); a named empty file is an error.
        string[] files = Directory.Exists(post)
            ? [.. Directory.GetFiles(post).Where(f => new FileInfo(f).Length > 0).Order(StringComparer.Ordinal)]
            : [post];
        foreach (var file in files)
        {
            server.Store.PostFile(file, commandLine.SegmentSize);
        }
    }
    if (server.Store.Files.Count == 0)
    {
        Console.Error.WriteLine("MockNntpServer: nothing to serve (the posted directories hold no non-empty files).");
        return 2;
    }
}
catch (Exception e) when (e is ArgumentException or IOException or UnauthorizedAccessException)
{
    Console.Error.WriteLine($"MockNntpServer: {e.Message}");
    return 2;
}

using var stop = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) =>
{
    e.Cancel = true;
    stop.Cancel();
};
using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context =>
{
    context.Cancel = true;
    stop.Cancel();
});

await server.StartAsync(stop.Token);
var nzbPath = Path.GetFullPath(commandLine.NzbOut ?? Path.Combine(Path.GetTempPath(), $"mock-nntp-{server.Port}.nzb"));
try
{
    server.WriteNzb(nzbPath);
}
catch (Exception e) when (e is IOException or UnauthorizedAccessException)
{
    Console.Error.WriteLine($"MockNntpServer: cannot write the NZB to '{nzbPath}': {e.Message}");
    return 2;
}
Console.WriteLine($"MOCK-NNTP-READY port={server.Port} nzb={nzbPath}");
Console.Out.Flush();
try
{
    await Task.Delay(Timeout.Infinite, stop.Token);
}
catch (OperationCanceledException)
{
    // Ctrl+C or SIGTERM: fall through to a clean shutdown.
}
return 0;

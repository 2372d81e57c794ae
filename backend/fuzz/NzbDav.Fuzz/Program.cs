using NzbDav.Fuzz;
using SharpFuzz;

// Usage:
//   NzbDav.Fuzz <target>                       run one target under afl-fuzz (persistent mode)
//   NzbDav.Fuzz replay <target> <dir|file>...  run kept inputs directly; exit 1 on any finding
//   NzbDav.Fuzz list                           the target names
if (args.Length == 1 && args[0] == "list")
{
    foreach (var name in FuzzTargets.Names)
    {
        Console.WriteLine(name);
    }
    return 0;
}

if (args.Length >= 3 && args[0] == "replay")
{
    var replayTarget = FuzzTargets.Create(args[1]);
    if (replayTarget is null)
    {
        Console.Error.WriteLine($"unknown target '{args[1]}'");
        return 2;
    }
    var failed = 0;
    var count = 0;
    var accepted = 0;
    foreach (var path in args.Skip(2))
    {
        foreach (var file in File.Exists(path) ? [path] : Replayer.FilesUnder(path))
        {
            count++;
            var result = Replayer.RunOne(replayTarget, file);
            accepted += result.Accepted ? 1 : 0;
            if (result.Problem is { } problem)
            {
                failed++;
                Console.WriteLine($"FINDING {file}: {problem}");
            }
        }
    }
    Console.WriteLine($"{replayTarget.Name}: {count} inputs, {accepted} accepted, {count - failed - accepted} rejected cleanly, {failed} findings");
    return failed == 0 ? 0 : 1;
}

if (args.Length == 1 && FuzzTargets.Names.Contains(args[0], StringComparer.OrdinalIgnoreCase))
{
    // Inputs over 1 MiB are cut: every parser here sees its interesting structure in the first bytes.
    var buffer = new byte[1024 * 1024];
    FuzzTarget? target = null;
    Fuzzer.Run(stream =>
    {
        // Created on the first input: instrumented code must not run before the fork server is up.
        target ??= FuzzTargets.Create(args[0])!;
        var length = stream.ReadAtLeast(buffer, buffer.Length, throwOnEndOfStream: false);
        target.Run(buffer.AsSpan(0, length).ToArray());
    });
    return 0;
}

Console.Error.WriteLine("usage: NzbDav.Fuzz <target> | replay <target> <dir|file>... | list");
Console.Error.WriteLine("targets: " + string.Join(", ", FuzzTargets.Names));
return 2;

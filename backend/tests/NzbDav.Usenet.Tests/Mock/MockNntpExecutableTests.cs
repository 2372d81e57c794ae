using System.Diagnostics;

namespace NzbDav.Usenet.Tests.Mock;

/// <summary>The MockNntpServer executable, started as a real process.</summary>
public sealed class MockNntpExecutableTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task PrintsReadyLine_ServesTheNzbItWrote()
    {
        var nzbPath = Path.Combine(Path.GetTempPath(), $"mock-exe-{Guid.NewGuid():N}.nzb");
        using var process = Start("--size", "2", "--segment-size", "100", "--latency", "5", "--nzb-out", nzbPath);
        try
        {
            var line = await process.StandardOutput.ReadLineAsync(Ct);
            Assert.NotNull(line);
            var match = System.Text.RegularExpressions.Regex.Match(line, "^MOCK-NNTP-READY port=(\\d+) nzb=(.+)$");
            Assert.True(match.Success, line);
            Assert.Equal(nzbPath, match.Groups[2].Value);
            using var nzb = File.OpenRead(nzbPath);
            var files = NzbProbe.Read(nzb);
            var file = Assert.Single(files);
            Assert.Equal(21, file.Segments.Count); // 2 MiB in 100 KiB parts
            await using var client = await MockNntpServerTests.ConnectReadyAsync(int.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture));
            await client.SendAsync($"STAT <{file.Segments[^1].MessageId}>\r\n", Ct);
            Assert.StartsWith("223 ", await client.ReadLineAsync(Ct));
        }
        finally
        {
            process.Kill();
            await process.WaitForExitAsync(Ct);
            File.Delete(nzbPath);
        }
    }

    [Theory]
    [InlineData("--bogus")]
    [InlineData("--stall", "2")]
    [InlineData("--user", "only")]
    [InlineData("--post", "/definitely/not/here")]
    public async Task BadArguments_ExitWithCode2AndAMessage(params string[] args)
    {
        using var process = Start(args);
        var error = await process.StandardError.ReadToEndAsync(Ct);
        await process.WaitForExitAsync(Ct);
        Assert.Equal(2, process.ExitCode);
        Assert.StartsWith("MockNntpServer: ", error);
    }

    private static Process Start(params string[] args)
    {
        var info = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add(ExecutablePath());
        foreach (var arg in args)
        {
            info.ArgumentList.Add(arg);
        }
        return Process.Start(info) ?? throw new InvalidOperationException("dotnet did not start.");
    }

    private static string ExecutablePath()
    {
        // The referenced executable's dll and runtimeconfig are copied next to the test assembly.
        var path = Path.Combine(AppContext.BaseDirectory, "MockNntpServer.dll");
        Assert.True(File.Exists(path) && File.Exists(Path.ChangeExtension(path, ".runtimeconfig.json")), $"MockNntpServer not built at {path}");
        return path;
    }
}

using System.Diagnostics;

namespace NzbDav.Server.Tests.Health;

/// <summary>Debian's par2 (par2cmdline), which makes the releases' recovery data and verifies repaired files.</summary>
internal static class Par2Tool
{
    /// <summary>Runs <c>par2</c> with <paramref name="args"/> in <paramref name="directory"/>; fails the test unless it exits 0.</summary>
    public static void Run(string directory, params string[] args)
    {
        var info = new ProcessStartInfo("par2") { WorkingDirectory = directory, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var arg in args)
            info.ArgumentList.Add(arg);
        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        process.WaitForExit();
        Assert.True(process.ExitCode == 0, $"par2 {string.Join(' ', args)} exited {process.ExitCode}: {stdout.GetAwaiter().GetResult()}{stderr.GetAwaiter().GetResult()}");
    }
}

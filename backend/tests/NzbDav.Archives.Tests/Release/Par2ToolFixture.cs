using System.Diagnostics;

namespace NzbDav.Archives.Tests.Release;

/// <summary>
/// Finds Debian's <c>par2</c> (par2cmdline), installing it with apt-get when it is missing and we may.
/// Tests skip, naming the reason, only when the tool can neither be found nor installed.
/// </summary>
public sealed class Par2ToolFixture
{
    public Par2ToolFixture()
    {
        ToolPath = Find();
        if (ToolPath is null)
        {
            var install = Run("apt-get", ["install", "-y", "-q", "par2"], Path.GetTempPath(), TimeSpan.FromMinutes(5));
            ToolPath = Find();
            UnavailableReason = ToolPath is null
                ? "The par2 tool is not installed and 'apt-get install -y par2' failed: " + install.Trim()
                : null;
        }
    }

    public string? ToolPath { get; }

    public string? UnavailableReason { get; }

    /// <summary>Runs <c>par2 create</c> over <paramref name="files"/> in <paramref name="directory"/>.</summary>
    public void Create(string directory, string par2Name, IEnumerable<string> files, int redundancyPercent = 5)
    {
        if (ToolPath is null)
        {
            Assert.Skip(UnavailableReason ?? "par2 unavailable");
        }

        string[] args = ["create", "-q", "-q", "-r" + redundancyPercent, "-n1", par2Name, .. files];
        var output = Run(ToolPath, args, directory, TimeSpan.FromMinutes(2));
        Assert.True(File.Exists(Path.Combine(directory, par2Name)), "par2 create produced no index file: " + output);
    }

    /// <summary>Runs <c>par2</c> with <paramref name="args"/> in <paramref name="directory"/>; its exit code and output.</summary>
    public (int Exit, string Output) Invoke(string directory, params string[] args)
    {
        if (ToolPath is null)
        {
            Assert.Skip(UnavailableReason ?? "par2 unavailable");
        }

        var output = Run(ToolPath, args, directory, TimeSpan.FromMinutes(5));
        var exit = output.StartsWith("exit ", StringComparison.Ordinal) && int.TryParse(output.AsSpan(5, output.IndexOf(':', StringComparison.Ordinal) - 5), out var code) ? code : -1;
        return (exit, output);
    }

    private static string? Find()
    {
        var path = Environment.GetEnvironmentVariable("PATH") ?? "";
        return path.Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Select(dir => Path.Combine(dir, "par2"))
            .FirstOrDefault(File.Exists);
    }

    private static string Run(string program, IEnumerable<string> args, string directory, TimeSpan timeout)
    {
        var info = new ProcessStartInfo(program)
        {
            WorkingDirectory = directory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var arg in args)
        {
            info.ArgumentList.Add(arg);
        }

        try
        {
            using var process = Process.Start(info)!;
            var stdout = process.StandardOutput.ReadToEndAsync();
            var stderr = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit(timeout))
            {
                process.Kill(entireProcessTree: true);
                return program + " timed out";
            }

            return "exit " + process.ExitCode + ": " + stdout.Result + stderr.Result;
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            return program + " could not start: " + e.Message;
        }
    }
}

using System.ComponentModel;
using System.Diagnostics;

namespace NzbDav.Server.Tests.RealClients;

/// <summary>Runs a real client (rclone, ffprobe, ffmpeg) to completion; a missing tool fails the test with how to get it.</summary>
internal static class ExternalTool
{
    public static Task<ToolResult> RunAsync(string tool, IReadOnlyList<string> arguments, CancellationToken cancellationToken) =>
        RunAsync(tool, arguments, ToolRun.Default, cancellationToken);

    /// <summary>As above, with the deadline, install hint, environment and working directory of <paramref name="run"/>.</summary>
    public static async Task<ToolResult> RunAsync(string tool, IReadOnlyList<string> arguments, ToolRun run, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(tool, arguments)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
        };
        if (run.WorkingDirectory is not null)
            start.WorkingDirectory = run.WorkingDirectory;
        foreach (var (name, value) in run.Environment ?? new Dictionary<string, string?>())
        {
            if (value is null)
                start.Environment.Remove(name);
            else
                start.Environment[name] = value;
        }

        Process process;
        try
        {
            process = Process.Start(start)!;
        }
        catch (Win32Exception ex)
        {
            Assert.Fail($"'{tool}' is not installed ({ex.Message}); tools/test.sh installs it, or run: {run.Install}");
            throw;
        }

        using (process)
        {
            process.StandardInput.Close();
            using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            deadline.CancelAfter(run.Deadline);
            using var output = new MemoryStream();
            var copy = process.StandardOutput.BaseStream.CopyToAsync(output, deadline.Token);
            var errors = process.StandardError.ReadToEndAsync(deadline.Token);
            try
            {
                await process.WaitForExitAsync(deadline.Token);
                await copy;
            }
            catch (OperationCanceledException)
            {
                process.Kill(entireProcessTree: true);
                Assert.Fail($"{tool} {string.Join(' ', arguments)} did not finish within {run.Deadline.TotalSeconds} s.");
                throw;
            }

            return new ToolResult(process.ExitCode, output.ToArray(), await errors);
        }
    }

    /// <summary>As <see cref="RunAsync(string, IReadOnlyList{string}, CancellationToken)"/>, asserting exit code 0 and returning standard output.</summary>
    public static Task<byte[]> RunCheckedAsync(string tool, IReadOnlyList<string> arguments, CancellationToken cancellationToken) =>
        RunCheckedAsync(tool, arguments, ToolRun.Default, cancellationToken);

    /// <summary>As <see cref="RunAsync(string, IReadOnlyList{string}, ToolRun, CancellationToken)"/>, asserting exit code 0 and returning standard output.</summary>
    public static async Task<byte[]> RunCheckedAsync(string tool, IReadOnlyList<string> arguments, ToolRun run, CancellationToken cancellationToken)
    {
        var result = await RunAsync(tool, arguments, run, cancellationToken);
        Assert.True(result.ExitCode == 0, $"{tool} {string.Join(' ', arguments)} exited with {result.ExitCode}: {result.Errors}");
        return result.Output;
    }
}

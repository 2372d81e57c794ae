using System.Diagnostics;

namespace NzbDav.Server.Tests.Hosting;

/// <summary>A setting out of range stops the server with a clear line and exit code 1, not a crash.</summary>
public sealed class InvalidSettingTests
{
    [Fact]
    public async Task An_invalid_setting_stops_the_server_with_its_name_and_exit_code_1()
    {
        var ct = TestContext.Current.CancellationToken;
        var data = Directory.CreateTempSubdirectory("nzbdav-invalid-setting-");
        try
        {
            var start = new ProcessStartInfo(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet")
            {
                WorkingDirectory = data.FullName,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            };
            foreach (var argument in (string[])[
                Path.Combine(AppContext.BaseDirectory, "NzbDav.dll"),
                "--urls", "http://127.0.0.1:0",
                "--NzbDav:DataDirectory=" + data.FullName,
                "--Streaming:ConnectionsPerStream=0",
            ])
            {
                start.ArgumentList.Add(argument);
            }

            using var process = Process.Start(start)!;
            var output = process.StandardOutput.ReadToEndAsync(ct);
            var error = process.StandardError.ReadToEndAsync(ct);
            using var deadline = CancellationTokenSource.CreateLinkedTokenSource(ct);
            deadline.CancelAfter(TimeSpan.FromSeconds(60));
            try
            {
                await process.WaitForExitAsync(deadline.Token);
            }
            finally
            {
                if (!process.HasExited)
                    process.Kill(entireProcessTree: true);
            }

            var text = await output + await error;
            Assert.Equal(1, process.ExitCode);
            Assert.Contains("NzbDav stopped", text, StringComparison.Ordinal);
            Assert.Contains("ConnectionsPerStream", text, StringComparison.Ordinal);
        }
        finally
        {
            data.Delete(recursive: true);
        }
    }
}

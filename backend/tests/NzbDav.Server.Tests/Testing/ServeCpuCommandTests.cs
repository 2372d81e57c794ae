using System.Text.Json;
using NzbDav.Testing;
using NzbDav.Tools.Testing.ServeCpu;

namespace NzbDav.Server.Tests.Testing;

/// <summary>
/// <c>--test-serve-cpu</c> run in-process; its children are the real <c>NzbDav.dll</c> and
/// <c>MockNntpServer.dll</c> that the project references copy into this test's output folder.
/// </summary>
public sealed class ServeCpuCommandTests
{
    private const long SixteenMiB = 16L * 1024 * 1024;

    [Fact]
    [SlowTest("starts the server as a child process and measures its CPU")]
    public async Task A_small_run_measures_only_the_gets_after_the_warm_up_and_leaves_no_child_behind()
    {
        var (exitCode, output, error) = await RunAsync(
            "--size=16", "--warmup-gets=2", "--gets=3", "--parallel=2", "--json", "--server=" + Path.Combine(AppContext.BaseDirectory, "NzbDav.dll"));

        Assert.True(exitCode == 0, error);
        Assert.Contains("SERVER CPU PER GB SERVED", output, StringComparison.Ordinal);
        using var document = JsonDocument.Parse(output.TrimEnd().Split('\n')[^1]);
        var json = document.RootElement;
        Assert.Equal("test-serve-cpu", json.GetProperty("command").GetString());
        Assert.Equal("/content/default/serve-cpu/mock-16MB.bin", json.GetProperty("path").GetString());
        Assert.Equal(SixteenMiB, json.GetProperty("fileSize").GetInt64());
        // The warm-up GETs are reported on their own and are not in the measured bytes.
        Assert.Equal(2 * SixteenMiB, json.GetProperty("warmupBytes").GetInt64());
        Assert.Equal(2, json.GetProperty("warmupMs").GetArrayLength());
        Assert.True(json.GetProperty("warmupCpuSecondsPerGb").GetDouble() > 0);
        Assert.Equal(3 * SixteenMiB, json.GetProperty("bytesServed").GetInt64());
        Assert.Equal(3, json.GetProperty("getMs").GetArrayLength());
        Assert.Equal(2, json.GetProperty("parallel").GetInt32());
        Assert.True(json.GetProperty("seconds").GetDouble() > 0);
        Assert.True(json.GetProperty("MBps").GetDouble() > 0);
        Assert.True(json.GetProperty("serverCpuSeconds").GetDouble() > 0);
        Assert.True(json.GetProperty("cpuSecondsPerGb").GetDouble() > 0);
        // Serving 48 MiB takes many socket completions, each waking a thread at least once.
        Assert.True(json.GetProperty("contextSwitchesPerGb").GetDouble() > 0);
        Assert.True(json.GetProperty("serverPeakRssMB").GetDouble() > 10);
        Assert.True(json.GetProperty("mockCpuSeconds").GetDouble() >= 0);
        Assert.Empty(RunChildren());
    }

    [Fact]
    public async Task A_server_that_cannot_start_fails_the_run_with_its_output_and_the_mock_is_stopped()
    {
        var (exitCode, output, error) = await RunAsync("--size=1", "--gets=1", "--Streaming:ConnectionsPerStream=0");

        Assert.Equal(1, exitCode);
        Assert.Empty(output);
        Assert.Contains("the NzbDav server exited with code", error, StringComparison.Ordinal);
        Assert.Contains("ConnectionsPerStream", error, StringComparison.Ordinal);
        Assert.Empty(RunChildren());
    }

    [Theory]
    [InlineData("--gets=0", "--gets must be a whole number from 1 to 10000; got '0'.")]
    [InlineData("--size=big", "--size must be a whole number from 1 to 1000000; got 'big'.")]
    [InlineData("--parallel", "--parallel needs a value.")]
    [InlineData("--parallel=4", "--parallel (4) cannot exceed --gets (3)")]
    [InlineData("--json=yes", "--json takes no value (got 'yes').")]
    [InlineData("--warmup-gets=0", "--warmup-gets must be a whole number from 1 to 10000; got '0'.")]
    [InlineData("--server=/nonexistent/NzbDav.dll", "--server: there is no file '/nonexistent/NzbDav.dll'.")]
    [InlineData("--mock-server", "Unknown argument '--mock-server'.")]
    public async Task Bad_arguments_exit_2_with_the_reason_and_the_usage(string argument, string reason)
    {
        var (exitCode, output, error) = await RunAsync(argument);

        Assert.Equal(2, exitCode);
        Assert.Empty(output);
        Assert.Contains(reason, error, StringComparison.Ordinal);
        Assert.Contains("Usage:", error, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_reads_the_flags_in_both_forms_and_keeps_configuration_for_the_server()
    {
        var options = ServeCpuArguments.Parse(["--size", "500", "--warmup-gets", "2", "--gets=5", "--parallel", "2", "--latency=0", "--json", "--Streaming:ConnectionsPerStream=8"]);

        Assert.Equal(500, options.SizeMiB);
        Assert.Equal(500L * 1024 * 1024, options.FileSize);
        Assert.Equal(5, options.Gets);
        Assert.Equal(2, options.WarmupGets);
        Assert.Null(options.ServerPath);
        Assert.Equal(2, options.Parallel);
        Assert.Equal(0, options.LatencyMs);
        Assert.Equal(1, options.JitterMs);
        Assert.Equal(20, options.Connections);
        Assert.True(options.Json);
        Assert.Equal(["--Streaming:ConnectionsPerStream=8"], options.ConfigurationArguments);
    }

    [Theory]
    [InlineData("[04:38:47 INF] Now listening on: http://127.0.0.1:35713", "http://127.0.0.1:35713")]
    [InlineData("[04:38:47 INF] Microsoft.Hosting.Lifetime: Now listening on: http://127.0.0.1:1", "http://127.0.0.1:1")]
    [InlineData("[04:38:47 INF] Application started. Press Ctrl+C to shut down.", null)]
    [InlineData("Now listening on: https://127.0.0.1:443", null)]
    public void The_server_address_is_read_from_its_listening_line(string line, string? expected) =>
        Assert.Equal(expected, ServeCpuChildren.ListeningUrl(line));

    [Fact]
    public async Task Help_prints_the_usage()
    {
        var (exitCode, output, _) = await RunAsync("--help");

        Assert.Equal(0, exitCode);
        Assert.Contains("NzbDav --test-serve-cpu", output, StringComparison.Ordinal);
    }

    /// <summary>Processes whose command line names a run's temporary folder: the children of a run still alive.</summary>
    private static List<string> RunChildren()
    {
        var found = new List<string>();
        foreach (var process in Directory.GetDirectories("/proc"))
        {
            try
            {
                var commandLine = File.ReadAllText(Path.Combine(process, "cmdline")).Replace('\0', ' ');
                if (commandLine.Contains("nzbdav-serve-cpu-", StringComparison.Ordinal))
                    found.Add($"{Path.GetFileName(process)}: {commandLine}");
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Not a process, or one that ended while it was read.
            }
        }

        return found;
    }

    private static async Task<(int ExitCode, string Output, string Error)> RunAsync(params string[] args)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var exitCode = await ServeCpuCommand.RunAsync([.. args, "--Serilog:MinimumLevel:Default=Warning"], output, error, TestContext.Current.CancellationToken);
        TestContext.Current.TestOutputHelper?.WriteLine($"exit {exitCode}\n{output}\n{error}");
        return (exitCode, output.ToString(), error.ToString());
    }
}

using NzbDav.MockNntp;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.Testing;

public sealed class FullNzbTesterCommandTests
{
    private const long FiveMiB = 5L * 1024 * 1024;

    [Fact]
    public async Task A_mock_server_run_reads_every_byte_right_and_ends_with_the_json_report()
    {
        var run = await TesterRun.StartAsync("--mock-server", "--size=5", "--latency=5", "--json");

        Assert.Equal(0, run.ExitCode);
        Assert.Contains("FULL NZB TESTER RESULTS SUMMARY", run.Output, StringComparison.Ordinal);
        var json = run.Json();
        foreach (var field in new[] { "sequentialMBps", "seekMs", "readP95Ms", "bytesFetched", "bytesRead", "peakRssMB", "fetchedToReadRatio", "connectionAcquireTotalMs" })
        {
            Assert.True(json.TryGetProperty(field, out _), $"missing {field}");
        }

        var seeks = json.GetProperty("seekMs");
        Assert.Equal(["10", "50", "90", "20"], seeks.EnumerateObject().Select(p => p.Name));
        Assert.Equal(FiveMiB, json.GetProperty("fileSize").GetInt64());
        Assert.Equal(FiveMiB, json.GetProperty("sequentialBytes").GetInt64());
        var bytesRead = json.GetProperty("bytesRead").GetInt64();
        Assert.Equal(FiveMiB + json.GetProperty("scrubBytesRead").GetInt64(), bytesRead);
        Assert.True(json.GetProperty("bytesFetched").GetInt64() >= FiveMiB);
        var verification = json.GetProperty("verification");
        Assert.True(verification.GetProperty("passed").GetBoolean());
        Assert.Equal(bytesRead, verification.GetProperty("verifiedBytes").GetInt64());
        Assert.True(json.GetProperty("passed").GetBoolean());
        Assert.False(json.TryGetProperty("metricsScrapes", out _), "metrics are off unless asked for");
        var mock = json.GetProperty("mock");
        Assert.InRange(mock.GetProperty("peakConnections").GetInt32(), 1, 20);
        Assert.Equal(0, mock.GetProperty("rejectedConnections").GetInt64());
    }

    [Fact]
    public async Task Scraping_metrics_during_a_run_is_reported_and_changes_no_figure_it_checks()
    {
        // 20 MiB at 20 ms: the run lasts long enough for several 50 ms scrapes.
        var run = await TesterRun.StartAsync("--mock-server", "--size=20", "--latency=20", "--scrape-metrics-ms=50", "--json");

        Assert.Equal(0, run.ExitCode);
        Assert.Contains("Metrics Scrapes:", run.Output, StringComparison.Ordinal);
        var json = run.Json();
        Assert.True(json.GetProperty("verification").GetProperty("passed").GetBoolean());
        var scrapes = json.GetProperty("metricsScrapes");
        Assert.Equal(50, scrapes.GetProperty("intervalMs").GetInt32());
        Assert.True(scrapes.GetProperty("count").GetInt32() >= 2, scrapes.GetRawText());
        Assert.Equal(0, scrapes.GetProperty("failures").GetInt32());
        Assert.True(scrapes.GetProperty("lastBytes").GetInt64() > 1000, scrapes.GetRawText());
        Assert.True(scrapes.GetProperty("medianMs").GetDouble() > 0, scrapes.GetRawText());
    }

    [Fact]
    [SlowTest("a health sweep holding every connection through a full read")]
    public async Task A_health_sweep_holding_every_connection_never_makes_a_read_wait_a_second()
    {
        // 50 ms round trips, 8 connections; the sweep borrows all 8 before the read starts and must give them back.
        var run = await TesterRun.StartAsync("--mock-server", "--size=40", "--latency=50", "--jitter=10", "--connections=8", "--sweep-segments=3000", "--json");

        Assert.Equal(0, run.ExitCode);
        var json = run.Json();
        Assert.True(json.GetProperty("verification").GetProperty("passed").GetBoolean());
        var alone = json.GetProperty("sweepAlone");
        Assert.Equal(3000, alone.GetProperty("articles").GetInt32());
        Assert.Equal(3000, alone.GetProperty("present").GetInt32());
        Assert.True(alone.GetProperty("articlesPerSecond").GetDouble() > 100, alone.GetRawText());
        Assert.True(json.TryGetProperty("sweepDuringRead", out _));
        Assert.True(json.GetProperty("readMaxMs").GetDouble() < 1000, $"a read waited {json.GetProperty("readMaxMs").GetDouble()} ms during the sweep");
        Assert.Contains("Sweep during read:", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_configured_providers_are_used_for_an_nzb_file()
    {
        await using var server = new MockNntpServer(new MockNntpOptions { MaxConnections = 4 });
        server.Store.AddGeneratedFile("small.bin", 3 * 100_000 + 1, 100_000);
        server.Store.AddGeneratedFile("tiny.bin", 1_000, 100_000);
        await server.StartAsync(TestContext.Current.CancellationToken);
        var folder = Directory.CreateTempSubdirectory("nzbdav-tester-test-");
        try
        {
            var nzb = Path.Combine(folder.FullName, "release.nzb");
            server.WriteNzb(nzb);

            var run = await TesterRun.StartAsync(
                nzb, "--json",
                "--Usenet:Providers:0:Name=local", "--Usenet:Providers:0:Host=127.0.0.1",
                $"--Usenet:Providers:0:Port={server.Port}", "--Usenet:Providers:0:UseTls=false",
                "--Usenet:Providers:0:MaxConnections=4");

            Assert.Equal(0, run.ExitCode);
            var json = run.Json();
            Assert.Equal("release.nzb", json.GetProperty("source").GetString());
            Assert.Equal(2, json.GetProperty("totalFiles").GetInt32());
            Assert.Equal("small.bin", json.GetProperty("file").GetString());
            Assert.Equal(300_001, json.GetProperty("sequentialBytes").GetInt64());
            Assert.Equal(4, json.GetProperty("streamConnections").GetInt32());
            Assert.False(json.GetProperty("verification").GetProperty("enabled").GetBoolean());
            Assert.False(json.TryGetProperty("mock", out _));
            Assert.InRange(server.Stats.PeakConnections, 1, 4);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task A_missing_nzb_file_is_a_clear_usage_error()
    {
        var missing = Path.Combine(Path.GetTempPath(), $"no-such-{Guid.NewGuid():N}.nzb");

        var run = await TesterRun.StartAsync(missing);

        Assert.Equal(2, run.ExitCode);
        Assert.Contains($"NZB file '{missing}' does not exist.", run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", run.Error, StringComparison.Ordinal);
        Assert.Empty(run.Output);
    }

    [Fact]
    public async Task No_configured_provider_is_a_clear_usage_error()
    {
        var nzb = await WriteNzbAsync();
        try
        {
            var run = await TesterRun.StartAsync(nzb);

            Assert.Equal(2, run.ExitCode);
            Assert.Contains("No Usenet providers are configured", run.Error, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(nzb);
        }
    }

    [Fact]
    public async Task A_provider_that_cannot_be_reached_fails_the_run_with_a_one_line_reason()
    {
        var nzb = await WriteNzbAsync();
        try
        {
            var run = await TesterRun.StartAsync(
                nzb, "--Usenet:Providers:0:Name=down", "--Usenet:Providers:0:Host=127.0.0.1",
                $"--Usenet:Providers:0:Port={ClosedPort()}", "--Usenet:Providers:0:UseTls=false");

            Assert.Equal(1, run.ExitCode);
            Assert.StartsWith("--test-full-nzb failed: ", run.Error, StringComparison.Ordinal);
            Assert.DoesNotContain("   at ", run.Error, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(nzb);
        }
    }

    [Fact]
    public async Task A_cancelled_run_exits_1_and_says_so()
    {
        using var cancelled = new CancellationTokenSource();
        await cancelled.CancelAsync();
        using var output = new StringWriter();
        using var error = new StringWriter();

        var exitCode = await NzbDav.Tools.Testing.FullNzbTesterCommand.RunAsync(
            ["--mock-server", "--size=1", "--Serilog:MinimumLevel:Default=Warning"], output, error, cancelled.Token);

        Assert.Equal(1, exitCode);
        Assert.Equal("--test-full-nzb: cancelled.", error.ToString().Trim());
    }

    [Fact]
    public async Task Bad_arguments_exit_2_with_the_reason_and_the_usage()
    {
        var run = await TesterRun.StartAsync("--mock-server", "--size=lots");

        Assert.Equal(2, run.ExitCode);
        Assert.Contains("--size must be a whole number", run.Error, StringComparison.Ordinal);
        Assert.Contains("Usage:", run.Error, StringComparison.Ordinal);
    }

    private static async Task<string> WriteNzbAsync()
    {
        await using var server = new MockNntpServer();
        server.Store.AddGeneratedFile("a.bin", 1_000, 500);
        var path = Path.Combine(Path.GetTempPath(), $"nzbdav-tester-{Guid.NewGuid():N}.nzb");
        server.WriteNzb(path);
        return path;
    }

    private static int ClosedPort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }
}

using System.Text.Json;
using Npgsql;
using NzbDav.Testing;
using NzbDav.Testing.Postgres;
using NzbDav.Tools.Testing.DavBenchmark;

namespace NzbDav.Server.Tests.Testing;

public sealed class WebDavBenchmarkCommandTests
{
    private const long EightMiB = 8L * 1024 * 1024;

    [Fact]
    public async Task A_small_run_reads_every_byte_right_over_webdav_and_ends_with_the_json_report()
    {
        var (exitCode, output, error) = await RunAsync(
            "--mock-server", "--size=8", "--latency=5", "--jitter=0", "--connections=8",
            "--streams=2", "--stream-mbps=0", "--stream-seconds=0", "--propfinds=20", "--header-reads=4", "--library-files=3", "--probe-files=0", "--json");

        Assert.True(exitCode == 0, error);
        Assert.Contains("WEBDAV BENCHMARK RESULTS SUMMARY", output, StringComparison.Ordinal);
        using var document = JsonDocument.Parse(output.TrimEnd().Split('\n')[^1]);
        var json = document.RootElement;
        Assert.Equal("test-webdav", json.GetProperty("command").GetString());
        Assert.Equal("/content/default/mock/mock.bin", json.GetProperty("path").GetString());
        Assert.Equal(EightMiB, json.GetProperty("fileSize").GetInt64());
        foreach (var get in new[] { "coldGet", "warmGet" })
        {
            Assert.Equal(200, json.GetProperty(get).GetProperty("status").GetInt32());
            Assert.Equal(EightMiB, json.GetProperty(get).GetProperty("bytes").GetInt64());
        }

        Assert.Equal(["10", "50", "90"], json.GetProperty("rangedTtfbMs").EnumerateObject().Select(p => p.Name));
        Assert.True(json.GetProperty("testerSequentialMBps").GetDouble() > 0);
        var concurrent = json.GetProperty("concurrent");
        Assert.Equal(2, concurrent.GetProperty("streams").GetInt32());
        Assert.Equal(20, concurrent.GetProperty("propfinds").GetProperty("count").GetInt32());
        Assert.Equal(4, concurrent.GetProperty("headerReads").GetProperty("count").GetInt32());
        // The streams stop when the scan is over (no minimum duration here), wherever they are.
        var streamBytes = concurrent.GetProperty("streamBytes").GetInt64();
        Assert.InRange(streamBytes, 2 * 256 * 1024, 2 * EightMiB);
        Assert.InRange(concurrent.GetProperty("streamsAtEnd").GetInt32(), 0, 2);

        // Two whole GETs, three 256 KiB ranges, four 64 KiB header reads and the streams: every byte compared.
        var verification = json.GetProperty("verification");
        Assert.True(verification.GetProperty("passed").GetBoolean());
        Assert.Equal((2 * EightMiB) + (3 * 256 * 1024) + (4 * 64 * 1024) + streamBytes, verification.GetProperty("verifiedBytes").GetInt64());
        Assert.True(verification.GetProperty("testerVerifiedBytes").GetInt64() >= EightMiB);
        foreach (var target in new[] { "coldRatio", "warmRatio", "rangedTtfb", "streamWait" })
            Assert.Contains(json.GetProperty("targets").GetProperty(target).ValueKind, new[] { JsonValueKind.True, JsonValueKind.False });
        Assert.InRange(json.GetProperty("mock").GetProperty("peakConnections").GetInt32(), 1, 8);
        Assert.False(json.TryGetProperty("probe", out _));
        Assert.DoesNotContain("PLEX-LIKE PROBE", output, StringComparison.Ordinal);
        Assert.True(json.GetProperty("passed").GetBoolean());
    }

    [Fact]
    public async Task The_probe_phase_reads_the_same_pattern_twice_and_reports_provider_bytes_per_scan()
    {
        var (exitCode, output, error) = await RunAsync(
            "--mock-server", "--size=4", "--latency=5", "--jitter=0", "--connections=8",
            "--streams=0", "--stream-seconds=0", "--propfinds=0", "--header-reads=0", "--library-files=1",
            "--probe-files=3", "--probe-file-mib=4", "--probe-concurrency=2", "--json");

        Assert.True(exitCode == 0, error);
        Assert.Contains("PLEX-LIKE PROBE: 3 FILES OF 4 MiB, 2 AT ONCE, SCANNED TWICE:", output, StringComparison.Ordinal);
        using var document = JsonDocument.Parse(output.TrimEnd().Split('\n')[^1]);
        var json = document.RootElement;
        var probe = json.GetProperty("probe");
        Assert.Equal(3, probe.GetProperty("files").GetInt32());
        Assert.Equal(4L * 1024 * 1024, probe.GetProperty("fileSize").GetInt64());
        Assert.Equal(2, probe.GetProperty("concurrency").GetInt32());

        // Per file and scan: the first and the last 64 KiB and three 1 MiB ranges.
        const long PerScan = 3 * ((2 * 64 * 1024) + (3 * 1024 * 1024));
        Assert.Equal(2 * PerScan, probe.GetProperty("servedBytes").GetInt64());
        foreach (var name in new[] { "scan1", "scan2" })
        {
            var scan = probe.GetProperty(name);
            Assert.Equal(PerScan, scan.GetProperty("servedBytes").GetInt64());
            Assert.Equal(3 * 7, scan.GetProperty("requests").GetInt32());
            Assert.Equal(3, scan.GetProperty("propfinds").GetProperty("count").GetInt32());
            Assert.Equal(3, scan.GetProperty("headRequests").GetProperty("count").GetInt32());
            Assert.Equal(3, scan.GetProperty("headerReads").GetProperty("count").GetInt32());
            Assert.Equal(3, scan.GetProperty("tailReads").GetProperty("count").GetInt32());
            Assert.Equal(9, scan.GetProperty("randomReads").GetProperty("count").GetInt32());
            Assert.True(scan.GetProperty("ms").GetDouble() > 0);
            Assert.True(scan.GetProperty("randomReads").GetProperty("p99Ms").GetDouble() > 0);
        }

        // The first scan has to fetch from the provider; a refresh may be served (partly) without it.
        var scan1 = probe.GetProperty("scan1");
        Assert.True(scan1.GetProperty("providerBytes").GetInt64() > 0);
        Assert.True(scan1.GetProperty("fetchedToServedRatio").GetDouble() > 0);
        Assert.True(probe.GetProperty("scan2").GetProperty("fetchedToServedRatio").GetDouble() >= 0);
        Assert.True(probe.GetProperty("fetchedToServedRatio").GetDouble() > 0);
        Assert.Equal(
            scan1.GetProperty("providerBytes").GetInt64() + probe.GetProperty("scan2").GetProperty("providerBytes").GetInt64(),
            probe.GetProperty("providerBytes").GetInt64());

        // Two whole GETs of the 4 MiB file, three 256 KiB ranges and the probe: every byte compared.
        var verification = json.GetProperty("verification");
        Assert.True(verification.GetProperty("passed").GetBoolean());
        Assert.Equal((2 * 4L * 1024 * 1024) + (3 * 256 * 1024) + (2 * PerScan), verification.GetProperty("verifiedBytes").GetInt64());
        Assert.True(json.GetProperty("passed").GetBoolean());
    }

    [Fact]
    public async Task With_a_disk_cache_the_refresh_after_a_restart_and_a_played_file_costs_the_provider_nothing()
    {
        var (exitCode, output, error) = await RunAsync(
            "--mock-server", "--size=4", "--latency=5", "--jitter=0", "--connections=8",
            "--streams=0", "--stream-seconds=0", "--propfinds=0", "--header-reads=0", "--library-files=1",
            "--probe-files=4", "--probe-file-mib=4", "--probe-concurrency=2",
            "--disk-cache-mib=64", "--play-between-scans-mib=160", "--restart-between-scans", "--Cache:PlaybackWriteBytesPerSecond=0", "--json");

        Assert.True(exitCode == 0, error);
        Assert.Contains("Disk cache 64 MiB; between the scans: 167,772,160 bytes played, the server restarted", output, StringComparison.Ordinal);
        using var document = JsonDocument.Parse(output.TrimEnd().Split('\n')[^1]);
        var probe = document.RootElement.GetProperty("probe");
        Assert.True(probe.GetProperty("restarted").GetBoolean());
        Assert.Equal(160L * 1024 * 1024, probe.GetProperty("playedBetweenBytes").GetInt64());
        Assert.Equal(64L * 1024 * 1024, probe.GetProperty("diskCacheBytes").GetInt64());
        // 160 MiB went through a 64 MiB cache between the scans (every played segment written: no playback write limit), and the server lost its memory:
        // the heads, tails and probed ranges are still on disk.
        var scan1 = probe.GetProperty("scan1");
        var scan2 = probe.GetProperty("scan2");
        Assert.True(scan1.GetProperty("fetchedToServedRatio").GetDouble() > 1);
        Assert.True(scan2.GetProperty("fetchedToServedRatio").GetDouble() <= 0.02, scan2.GetRawText());
        // Across the restart the ledger accounted what the mock sent, within 1 %.
        var accounting = document.RootElement.GetProperty("accounting");
        Assert.InRange(accounting.GetProperty("ratio").GetDouble(), 0.99, 1.01);
        Assert.True(accounting.GetProperty("providerBytes").GetInt64() > 0);
        Assert.True(document.RootElement.GetProperty("passed").GetBoolean());
    }

    [Fact]
    public void The_probe_positions_are_the_same_in_every_scan_and_inside_the_file()
    {
        const long Size = (4L * 1024 * 1024) + 123;
        for (var index = 0; index < 50; index++)
        {
            var offsets = ProbePattern.RandomOffsets(index, Size);
            Assert.Equal(offsets, ProbePattern.RandomOffsets(index, Size));
            Assert.Equal(ProbePattern.RandomReads, offsets.Length);
            Assert.All(offsets, o => Assert.InRange(o, 0, Size - ProbePattern.RandomReadBytes));
        }

        // A file smaller than one read is read whole, from its start.
        Assert.All(ProbePattern.RandomOffsets(7, 1000), o => Assert.Equal(0, o));
        Assert.Equal((2 * 1000) + (3 * 1000), ProbePattern.BytesPerFile(1000));
    }

    [Fact]
    public async Task Without_the_mock_server_it_is_a_usage_error()
    {
        var (exitCode, output, error) = await RunAsync("--size=8");

        Assert.Equal(2, exitCode);
        Assert.Empty(output);
        Assert.Contains("--test-webdav runs against the in-process mock server only: give --mock-server.", error, StringComparison.Ordinal);
        Assert.Contains("Usage:", error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--streams=many", "--streams must be a whole number from 0 to 64; got 'many'.")]
    [InlineData("--scan-concurrency=0", "--scan-concurrency must be a whole number from 1 to 256; got '0'.")]
    [InlineData("--propfinds", "--propfinds needs a value.")]
    [InlineData("--probe-files=-1", "--probe-files must be a whole number from 0 to 10000; got '-1'.")]
    [InlineData("--probe-files=10001", "--probe-files must be a whole number from 0 to 10000; got '10001'.")]
    [InlineData("--probe-file-mib=0", "--probe-file-mib must be a whole number from 1 to 65536; got '0'.")]
    [InlineData("--probe-concurrency=0", "--probe-concurrency must be a whole number from 1 to 256; got '0'.")]
    [InlineData("--probe-concurrency=257", "--probe-concurrency must be a whole number from 1 to 256; got '257'.")]
    [InlineData("--hostile-connections=20001", "--hostile-connections must be a whole number from 0 to 20000; got '20001'.")]
    [InlineData("--bogus", "Unknown argument '--bogus'.")]
    [InlineData("--distinct-files=yes", "--distinct-files takes no value.")]
    [InlineData("--restart-between-scans=1", "--restart-between-scans takes no value.")]
    [InlineData("--disk-cache-mib=-5", "--disk-cache-mib must be a whole number from 0 to 16777216; got '-5'.")]
    [InlineData("--probe-files=0 --restart-between-scans", "--restart-between-scans and --play-between-scans-mib belong to the probe phase; --probe-files=0 skips it.")]
    [InlineData("--streams-held=0", "--streams-held must be a whole number from 1 to 1000; got '0'.")]
    [InlineData("--held-seconds=5", "--held-seconds, --held-start, --held-step, --held-max, --held-nodes and --held-postgres belong to --streams-held=MBps.")]
    [InlineData("--streams-held=7 --held-nodes=2", "--held-nodes=2 shares one library: give --held-postgres=<connection string of a PostgreSQL server>.")]
    [InlineData("--streams-held=7 --held-nodes=9", "--held-nodes must be a whole number from 1 to 8; got '9'.")]
    [InlineData("--streams-held=7 --held-start=20 --held-max=10", "--held-start (20) must not be above --held-max (10).")]
    public async Task Bad_arguments_exit_2_with_the_reason(string argument, string reason)
    {
        var (exitCode, _, error) = await RunAsync(["--mock-server", .. argument.Split(' ')]);

        Assert.Equal(2, exitCode);
        Assert.Contains(reason, error, StringComparison.Ordinal);
    }

    [Fact]
    [SlowTest("a flood of hostile connections held through a benchmark run")]
    public async Task Hostile_connections_are_held_through_the_concurrent_phase_and_the_slow_ones_cut()
    {
        // A 1 s header timeout: the slow-header sockets are cut (after 2-3 s) in the 4 s the stream plays.
        var (exitCode, output, error) = await RunAsync(
            "--mock-server", "--size=4", "--latency=0", "--jitter=0", "--connections=8",
            "--streams=1", "--stream-mbps=6", "--stream-seconds=4", "--propfinds=0", "--header-reads=0", "--library-files=1", "--probe-files=0",
            "--hostile-connections=40", "--Server:Limits:RequestHeadersTimeout=00:00:01", "--json");

        Assert.True(exitCode == 0, error);
        Assert.Contains("Hostile sockets:    20 idle (20 held to the end), 20 slow-header (20 cut by the server)", output, StringComparison.Ordinal);
        using var document = JsonDocument.Parse(output.TrimEnd().Split('\n')[^1]);
        var hostile = document.RootElement.GetProperty("concurrent").GetProperty("hostile");
        Assert.Equal(20, hostile.GetProperty("idleHeld").GetInt32());
        Assert.Equal(20, hostile.GetProperty("slowCut").GetInt32());
        Assert.True(document.RootElement.GetProperty("verification").GetProperty("passed").GetBoolean());
    }

    [Fact]
    public void Parse_reads_its_own_flags_and_hands_the_rest_to_the_tester_parser()
    {
        var options = WebDavBenchmarkArguments.Parse(
            ["--mock-server", "--size", "500", "--streams", "6", "--stream-mbps=0", "--propfinds=1000", "--json", "--Serilog:MinimumLevel:Default=Warning"]);

        Assert.True(options.Mock.MockServer);
        Assert.Equal(500, options.Mock.SizeMiB);
        Assert.Equal(50, options.Mock.LatencyMs);
        Assert.Equal(6, options.Streams);
        Assert.Equal(0, options.StreamMbps);
        Assert.Equal(1000, options.Propfinds);
        Assert.Equal(100, options.HeaderReads);
        Assert.Equal(200, options.ProbeFiles);
        Assert.Equal(64, options.ProbeFileMiB);
        Assert.Equal(4, options.ProbeConcurrency);
        Assert.True(options.Json);
        Assert.Equal(["--Serilog:MinimumLevel:Default=Warning"], options.Mock.ConfigurationArguments);
    }

    [Fact]
    public void Parse_reads_the_probe_flags_and_zero_files_skips_the_phase()
    {
        var options = WebDavBenchmarkArguments.Parse(["--mock-server", "--probe-files=0", "--probe-file-mib", "1", "--probe-concurrency=16"]);

        Assert.Equal(0, options.ProbeFiles);
        Assert.Equal(1, options.ProbeFileMiB);
        Assert.Equal(16, options.ProbeConcurrency);
    }

    [Fact]
    public async Task Help_prints_the_usage()
    {
        var (exitCode, output, _) = await RunAsync("--help");

        Assert.Equal(0, exitCode);
        Assert.Contains("--test-webdav --mock-server", output, StringComparison.Ordinal);
        foreach (var flag in new[] { "--probe-files=N", "--probe-file-mib=N", "--probe-concurrency=N" })
            Assert.Contains(flag, output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Distinct_files_give_each_stream_its_own_file_and_every_byte_is_compared()
    {
        var (exitCode, output, error) = await RunAsync(
            "--mock-server", "--size=2", "--latency=5", "--jitter=0", "--connections=8", "--distinct-files",
            "--streams=3", "--stream-mbps=0", "--stream-seconds=0", "--propfinds=5", "--header-reads=0", "--library-files=1", "--probe-files=0", "--json");

        Assert.True(exitCode == 0, error);
        Assert.Contains("3 files, one each", output, StringComparison.Ordinal);
        using var document = JsonDocument.Parse(output.TrimEnd().Split('\n')[^1]);
        var concurrent = document.RootElement.GetProperty("concurrent");
        Assert.Equal(3, concurrent.GetProperty("distinctFiles").GetInt32());
        // Unpaced streams of 2 MiB each finish before the five PROPFINDs end the phase or soon after:
        // what they received was compared against each one's own generated file.
        var streamBytes = concurrent.GetProperty("streamBytes").GetInt64();
        Assert.InRange(streamBytes, 3 * 256 * 1024, 3 * 2L * 1024 * 1024);
        // Nothing was shared between the streams: the provider sent at least what they received.
        Assert.True(concurrent.GetProperty("providerBytes").GetInt64() >= streamBytes);
        Assert.True(document.RootElement.GetProperty("verification").GetProperty("passed").GetBoolean());
    }

    [Fact]
    [SlowTest("starts the server as a child process and plays two steps of 2 s")]
    public async Task Streams_held_steps_up_until_the_maximum_with_the_server_in_its_own_process()
    {
        // Two steps (1 then 2 streams) of 2 s at 1 MB/s against a mock without latency: both hold.
        var (exitCode, output, error) = await RunAsync(
            "--mock-server", "--latency=0", "--jitter=0", "--connections=4", "--segment-size=256",
            "--streams-held=1", "--held-seconds=2", "--held-start=1", "--held-step=1", "--held-max=2", "--json");

        Assert.True(exitCode == 0, error);
        Assert.Contains("STREAMS HELD:          2 at 1 MB/s", output, StringComparison.Ordinal);
        using var document = JsonDocument.Parse(output.TrimEnd().Split('\n')[^1]);
        var json = document.RootElement;
        Assert.Equal("test-webdav-streams-held", json.GetProperty("command").GetString());
        Assert.Equal(2, json.GetProperty("held").GetInt32());
        var steps = json.GetProperty("steps").EnumerateArray().ToList();
        Assert.Equal([1, 2], steps.Select(s => s.GetProperty("streams").GetInt32()));
        foreach (var step in steps)
        {
            Assert.True(step.GetProperty("held").GetBoolean(), step.GetRawText());
            // A paced player may be one 256 KiB block ahead of its rate when it stops: 1.13 at 1 MB/s for 2 s.
            Assert.InRange(step.GetProperty("slowestFraction").GetDouble(), 0.95, 1.14);
            // Each stream reads about 2 MB in its 2 s: served bytes, and a provider that sent about as much.
            var served = step.GetProperty("servedBytes").GetInt64();
            Assert.InRange(served, step.GetProperty("streams").GetInt32() * 1_500_000L, step.GetProperty("streams").GetInt32() * 2_600_000L);
            // At least every byte served; in a 2 s step the read-ahead a whole-file GET starts with
            // (before the stream has measured its reader's rate) is most of what was fetched.
            Assert.InRange(step.GetProperty("fetchedToServed").GetDouble(), 1.0, 40.0);
            // The server's own process: far more than nothing, far less than this test host.
            Assert.InRange(step.GetProperty("serverPeakRssMB").GetDouble(), 20, 2000);
            Assert.Empty(step.GetProperty("failures").EnumerateArray());
        }

        // The largest step that held, flat (what bench-compare.sh --bench streams reads).
        var atHeld = json.GetProperty("atHeld");
        Assert.Equal(steps[^1].GetProperty("serverPeakRssMB").GetDouble(), atHeld.GetProperty("serverPeakRssMB").GetDouble(), 1);
        Assert.Equal(steps[^1].GetProperty("fetchedToServed").GetDouble(), atHeld.GetProperty("fetchedToServed").GetDouble(), 3);

        var verification = json.GetProperty("verification");
        Assert.True(verification.GetProperty("passed").GetBoolean());
        Assert.Equal(steps.Sum(s => s.GetProperty("servedBytes").GetInt64()), verification.GetProperty("verifiedBytes").GetInt64());
    }

    [Fact]
    [SlowTest("starts two server processes on one PostgreSQL library and plays one step of 2 s")]
    public async Task Streams_held_on_two_nodes_spreads_the_players_and_counts_the_store_transactions()
    {
        var (exitCode, output, error) = await RunAsync(
            "--mock-server", "--latency=0", "--jitter=0", "--connections=4", "--segment-size=256",
            "--streams-held=1", "--held-seconds=2", "--held-start=2", "--held-max=2", "--held-nodes=2",
            "--held-postgres=" + PostgresDatabase.Server, "--json");

        Assert.True(exitCode == 0, error);
        Assert.Contains("2 nodes (file i on node i mod 2), library on PostgreSQL", output, StringComparison.Ordinal);
        using var document = JsonDocument.Parse(output.TrimEnd().Split('\n')[^1]);
        var json = document.RootElement;
        Assert.Equal(2, json.GetProperty("nodes").GetInt32());
        Assert.Equal("postgres", json.GetProperty("store").GetString());
        Assert.Equal(2, json.GetProperty("held").GetInt32());
        // Two nodes heartbeat and step their leases every second: the library is never quiet.
        Assert.True(json.GetProperty("idleStoreTransactionsPerSecond").GetDouble() > 0);
        var step = Assert.Single(json.GetProperty("steps").EnumerateArray());
        Assert.True(step.GetProperty("held").GetBoolean(), step.GetRawText());
        Assert.True(step.GetProperty("storeTransactionsPerSecond").GetDouble() > 0);
        Assert.True(json.GetProperty("verification").GetProperty("passed").GetBoolean());

        // The run's library is gone with it.
        await using var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(PostgresDatabase.Server) { Database = "postgres" }.ConnectionString);
        await connection.OpenAsync(TestContext.Current.CancellationToken);
        await using var left = new NpgsqlCommand("SELECT COUNT(*) FROM pg_database WHERE datname LIKE 'nzbdav_held_%'", connection);
        Assert.Equal(0L, await left.ExecuteScalarAsync(TestContext.Current.CancellationToken));
    }

    private static async Task<(int ExitCode, string Output, string Error)> RunAsync(params string[] args)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var exitCode = await WebDavBenchmarkCommand.RunAsync([.. args, "--Serilog:MinimumLevel:Default=Warning"], output, error, TestContext.Current.CancellationToken);
        TestContext.Current.TestOutputHelper?.WriteLine($"exit {exitCode}\n{output}\n{error}");
        return (exitCode, output.ToString(), error.ToString());
    }
}

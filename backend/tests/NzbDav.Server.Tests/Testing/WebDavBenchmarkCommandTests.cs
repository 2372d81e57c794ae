using System.Text.Json;
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
            "--streams=2", "--stream-mbps=0", "--stream-seconds=0", "--propfinds=20", "--header-reads=4", "--library-files=3", "--json");

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
        Assert.True(json.GetProperty("passed").GetBoolean());
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
    [InlineData("--bogus", "Unknown argument '--bogus'.")]
    public async Task Bad_arguments_exit_2_with_the_reason(string argument, string reason)
    {
        var (exitCode, _, error) = await RunAsync("--mock-server", argument);

        Assert.Equal(2, exitCode);
        Assert.Contains(reason, error, StringComparison.Ordinal);
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
        Assert.True(options.Json);
        Assert.Equal(["--Serilog:MinimumLevel:Default=Warning"], options.Mock.ConfigurationArguments);
    }

    [Fact]
    public async Task Help_prints_the_usage()
    {
        var (exitCode, output, _) = await RunAsync("--help");

        Assert.Equal(0, exitCode);
        Assert.Contains("--test-webdav --mock-server", output, StringComparison.Ordinal);
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

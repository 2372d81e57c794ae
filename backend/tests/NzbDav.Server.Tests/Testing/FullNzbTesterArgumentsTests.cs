using NzbDav.Tools.Testing;

namespace NzbDav.Server.Tests.Testing;

public sealed class FullNzbTesterArgumentsTests
{
    [Fact]
    public void Mock_server_alone_takes_the_benchmark_defaults()
    {
        var options = FullNzbTesterArguments.Parse(["--mock-server"]);

        Assert.True(options.MockServer);
        Assert.Null(options.NzbPath);
        Assert.Equal(100, options.SizeMiB);
        Assert.Equal(50, options.LatencyMs);
        Assert.Equal(10, options.JitterMs);
        Assert.Equal(20, options.Connections);
        Assert.Equal(0, options.StallFraction);
        Assert.Equal(700, options.SegmentSizeKiB);
        Assert.False(options.Json);
        Assert.Empty(options.ConfigurationArguments);
    }

    [Fact]
    public void Every_mock_setting_is_read_with_equals_or_as_the_next_argument()
    {
        var options = FullNzbTesterArguments.Parse(
            ["--mock-server", "--size=500", "--latency", "150", "--jitter=30", "--connections=8", "--stall=0.01", "--segment-size", "384", "--json"]);

        Assert.Equal(500, options.SizeMiB);
        Assert.Equal(150, options.LatencyMs);
        Assert.Equal(30, options.JitterMs);
        Assert.Equal(8, options.Connections);
        Assert.Equal(0.01, options.StallFraction);
        Assert.Equal(384, options.SegmentSizeKiB);
        Assert.True(options.Json);
    }

    [Fact]
    public void Metrics_scraping_is_off_unless_asked_for()
    {
        Assert.Equal(0, FullNzbTesterArguments.Parse(["--mock-server"]).ScrapeMetricsMs);
        Assert.Equal(1000, FullNzbTesterArguments.Parse(["--mock-server", "--scrape-metrics-ms=1000"]).ScrapeMetricsMs);
        Assert.Equal(250, FullNzbTesterArguments.Parse(["x.nzb", "--scrape-metrics-ms", "250"]).ScrapeMetricsMs);
        Assert.Throws<FullNzbTesterUsageException>(() => FullNzbTesterArguments.Parse(["--mock-server", "--scrape-metrics-ms=-1"]));
    }

    [Fact]
    public void An_nzb_path_with_configuration_overrides_is_read()
    {
        var options = FullNzbTesterArguments.Parse(
            ["release.nzb", "--Usenet:Providers:0:Host=news.example.com", "--Usenet:Providers:0:Port", "119", "--json"]);

        Assert.Equal("release.nzb", options.NzbPath);
        Assert.False(options.MockServer);
        Assert.Equal(["--Usenet:Providers:0:Host=news.example.com", "--Usenet:Providers:0:Port=119"], options.ConfigurationArguments);
    }

    [Fact]
    public void Help_needs_nothing_else()
    {
        Assert.True(FullNzbTesterArguments.Parse(["--help"]).Help);
        Assert.True(FullNzbTesterArguments.Parse(["-h"]).Help);
    }

    [Theory]
    [InlineData("Give the NZB file to test, or --mock-server.")]
    [InlineData("Give either an NZB file or --mock-server, not both", "a.nzb", "--mock-server")]
    [InlineData("Only one NZB file can be tested", "a.nzb", "b.nzb")]
    [InlineData("--size, --latency only apply with --mock-server.", "a.nzb", "--size=5", "--latency=1")]
    [InlineData("Unknown argument '--sise=5'.", "--mock-server", "--sise=5")]
    [InlineData("--size must be a whole number from 1 to 1000000; got 'big'.", "--mock-server", "--size=big")]
    [InlineData("--size must be a whole number from 1 to 1000000; got '0'.", "--mock-server", "--size=0")]
    [InlineData("--latency must be a whole number from 0 to 600000; got '-5'.", "--mock-server", "--latency=-5")]
    [InlineData("--connections must be a whole number from 1 to 10000; got '0'.", "--mock-server", "--connections=0")]
    [InlineData("--stall must be a fraction from 0 up to (not including) 1", "--mock-server", "--stall=1")]
    [InlineData("--stall must be a fraction from 0 up to (not including) 1", "--mock-server", "--stall=1,5")]
    [InlineData("--jitter needs a value.", "--mock-server", "--jitter")]
    [InlineData("--jitter needs a value.", "--mock-server", "--jitter", "--json")]
    [InlineData("--json takes no value (got 'yes').", "--mock-server", "--json=yes")]
    public void Bad_arguments_are_refused_with_a_message_that_says_what_is_wrong(string message, params string[] args)
    {
        var error = Assert.Throws<FullNzbTesterUsageException>(() => FullNzbTesterArguments.Parse(args));

        Assert.StartsWith(message, error.Message, StringComparison.Ordinal);
    }
}

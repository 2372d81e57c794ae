using NzbDav.MockNntp;
using NzbDav.Streaming.Tests.Support;
using NzbDav.Usenet.Providers;
using static NzbDav.Streaming.Tests.Support.StreamHarness;
using static NzbDav.Testing.Waiting;

namespace NzbDav.Streaming.Tests;

/// <summary>Providers changed while a stream reads over real sockets: no read error, no byte wrong, no cap exceeded.</summary>
public sealed class ReconfigureWhileStreamingTests
{
    private const int SegmentSize = 30 * 1024;

    [Fact]
    public async Task Removing_the_provider_a_stream_reads_from_moves_it_to_the_other_without_a_read_error()
    {
        await using var first = await StartServerAsync(latency: TimeSpan.FromMilliseconds(5), messageIdToken: "reconf-a");
        await using var second = await StartServerAsync(latency: TimeSpan.FromMilliseconds(5), messageIdToken: "reconf-a");
        var file = first.Store.AddGeneratedFile("moving.bin", (96L * SegmentSize) + 7, SegmentSize);
        second.Store.AddGeneratedFile("moving.bin", file.Size, SegmentSize);
        var one = Provider(first, "first", priority: 0);
        var two = Provider(second, "second", priority: 1);
        await using var harness = Create(new StreamingOptions { MaxReadAheadBytes = 8L * SegmentSize }, one, two);

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsExactlyAsync(stream, file, 24 * SegmentSize, Token);
            Assert.True(first.Stats.CurrentConnections > 0);
            var secondBodiesBefore = second.Stats.GetCommandCount(MockCommandKind.Body);

            harness.Client.Reconfigure(new UsenetOptions { Providers = [two], BreakerFailureThreshold = 50 });

            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 20_000, Token);
            Assert.True(second.Stats.GetCommandCount(MockCommandKind.Body) > secondBodiesBefore);
        }

        // The removed provider's sessions drained and closed; the provider saw them go.
        await WaitUntilAsync(() => first.Stats.CurrentConnections == 0, Token);
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task Lowering_a_cap_while_a_stream_reads_never_lets_the_provider_see_more_sessions()
    {
        await using var server = await StartServerAsync(maxConnections: 8, latency: TimeSpan.FromMilliseconds(20));
        var file = server.Store.AddGeneratedFile("capped.bin", (160L * SegmentSize) + 3, SegmentSize);
        var provider = Provider(server, "capped", maxConnections: 8);
        await using var harness = Create(new StreamingOptions { ConnectionsPerStream = 8 }, provider);

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsExactlyAsync(stream, file, 40 * SegmentSize, Token);
            await WaitUntilAsync(() => server.Stats.CurrentConnections >= 3, Token); // several sessions are in use

            harness.Client.Reconfigure(new UsenetOptions { Providers = [provider with { MaxConnections = 2 }], BreakerFailureThreshold = 50 });
            // From here the provider itself refuses a third session: any we opened would show as a rejection.
            server.MaxConnections = 2;

            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 64 * 1024, Token);
        }

        Assert.Equal(0, server.Stats.RejectedConnections);
        await WaitUntilAsync(() => server.Stats.CurrentConnections <= 2, Token); // the surplus closes as it comes back
        Assert.Equal(2, Assert.Single(harness.Client.GetProviderStatus()).Pool.MaxConnections);
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_provider_added_while_streaming_serves_the_articles_the_first_lacks()
    {
        await using var first = await StartServerAsync(messageIdToken: "reconf-b");
        await using var added = await StartServerAsync(messageIdToken: "reconf-b");
        var file = first.Store.AddGeneratedFile("holes.bin", (20L * SegmentSize) + 1, SegmentSize);
        added.Store.AddGeneratedFile("holes.bin", file.Size, SegmentSize);
        first.Store.SetMissing(file.Articles[15], true);
        var one = Provider(first, "first", priority: 0);
        // A short read-ahead, so segment 16 is first asked for after the second provider arrived.
        await using var harness = Create(new StreamingOptions { MaxReadAheadBytes = 2L * SegmentSize, StartReadAheadBytes = 2L * SegmentSize }, one);

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsExactlyAsync(stream, file, 10 * SegmentSize, Token);
            harness.Client.Reconfigure(new UsenetOptions { Providers = [one, Provider(added, "added", priority: 1)], BreakerFailureThreshold = 50 });

            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 20_000, Token);
        }

        Assert.True(added.Stats.GetCommandCount(MockCommandKind.Body) >= 1);
        await harness.AssertAllReturnedAsync();
    }
}

using NzbDav.MockNntp;
using NzbDav.Streaming.Tests.Support;
using static NzbDav.Streaming.Tests.Support.StreamHarness;

namespace NzbDav.Streaming.Tests;

/// <summary>Segments fetched once for every reader: the segment cache and fetches shared while in flight.</summary>
public sealed class SharedSegmentTests
{
    private const int SegmentSize = 32 * 1024;

    private static readonly StreamingOptions NoRacing = new() { MinimumStragglerDelay = TimeSpan.FromMinutes(5), WorkerIdleTimeout = TimeSpan.FromMilliseconds(20) };

    [Fact]
    public async Task Two_readers_of_one_file_at_once_fetch_each_segment_about_once()
    {
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(5));
        const int segments = 200;
        var file = server.Store.AddGeneratedFile("twice.bin", segments * (long)SegmentSize, SegmentSize);
        await using var harness = Create(NoRacing, Provider(server));
        var ids = file.Articles.Select(a => a.MessageId).ToList();

        await using (var first = harness.Factory.Open(ids, file.Size, SegmentSize))
        await using (var second = harness.Factory.Open(ids, file.Size, SegmentSize))
        {
            await Task.WhenAll(
                Task.Run(() => StreamAssert.ReadsToEndExactlyAsync(first, file, 48 * 1024, Token), Token),
                Task.Run(() => StreamAssert.ReadsToEndExactlyAsync(second, file, 48 * 1024, Token), Token));
            var bodies = server.Stats.GetCommandCount(MockCommandKind.Body);
            Assert.InRange(bodies, segments, segments * 11 / 10);
            Assert.Equal(file.Size, first.Statistics.BytesRead);
            Assert.Equal(file.Size, second.Statistics.BytesRead);
            // What one did not fetch it took from the other (in flight or kept).
            Assert.True(first.Statistics.BytesShared + second.Statistics.BytesShared >= file.Size * 9 / 10,
                $"shared {first.Statistics.BytesShared} + {second.Statistics.BytesShared} of {file.Size}");
        }

        Assert.True(harness.Factory.Cache.SharedFetches + harness.Factory.Cache.Hits >= segments * 9 / 10);
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_second_player_starting_later_reads_the_first_ones_read_ahead_instead_of_fetching_it()
    {
        await using var server = await StartServerAsync();
        const int segments = 60;
        var file = server.Store.AddGeneratedFile("later.bin", segments * (long)SegmentSize, SegmentSize);
        await using var harness = Create(NoRacing, Provider(server));
        var ids = file.Articles.Select(a => a.MessageId).ToList();

        await using var first = harness.Factory.Open(ids, file.Size, SegmentSize);
        await StreamAssert.ReadsExactlyAsync(first, file, SegmentSize / 2, Token);
        // The first player's start read-ahead covers the whole file; wait until it has all arrived.
        await harness.WaitUntilIdleAsync(first, server, segments);
        Assert.Equal(segments, server.Stats.GetCommandCount(MockCommandKind.Body));

        await using (var second = harness.Factory.Open(ids, file.Size, SegmentSize))
        {
            await StreamAssert.ReadsToEndExactlyAsync(second, file, 48 * 1024, Token);
            Assert.Equal(0, second.Statistics.BytesFetched);
        }
        Assert.Equal(segments, server.Stats.GetCommandCount(MockCommandKind.Body));

        await first.DisposeAsync();
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_header_read_again_is_served_from_the_cache_without_a_fetch()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("probe.bin", 50L * SegmentSize, SegmentSize);
        await using var harness = Create(NoRacing, Provider(server));
        var ids = file.Articles.Select(a => a.MessageId).ToList();

        for (var probe = 0; probe < 3; probe++)
        {
            // A scanner's ranged GET of the first 16 KiB and of the last 16 KiB.
            await using (var head = harness.Factory.Open(ids, file.Size, SegmentSize))
            {
                head.LimitReadAhead(16 * 1024);
                await StreamAssert.ReadsExactlyAsync(head, file, 16 * 1024, Token);
            }
            await using (var tail = harness.Factory.Open(ids, file.Size, SegmentSize))
            {
                tail.LimitReadAhead(file.Size);
                tail.Position = file.Size - (16 * 1024);
                await StreamAssert.ReadsExactlyAsync(tail, file, 16 * 1024, Token);
            }
        }

        Assert.Equal(2, server.Stats.GetCommandCount(MockCommandKind.Body));
        Assert.Equal(4, harness.Factory.Cache.Hits);
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_player_that_closes_as_soon_as_it_has_the_first_segment_leaves_it_cached_for_the_next_probe()
    {
        // The reader has a segment's last byte as soon as the part is verified, which can be before
        // the fetch group settled the request (the cache learns of answers there, or from the reader
        // letting go first): either way the first segment must be kept. (DashboardTests'
        // A_playing_stream_… hit the reader-first order in about half its runs.)
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(20));
        const int files = 6;
        const int partSize = 256 * 1024;
        var layouts = Enumerable.Range(0, files)
            .Select(i => server.Store.AddGeneratedFile($"closed-{i}.bin", 48L * partSize, partSize))
            .Select(f => (File: f, Ids: f.Articles.Select(a => a.MessageId).ToList()))
            .ToList();
        await using var harness = Create(NoRacing, Provider(server));

        foreach (var (file, ids) in layouts)
        {
            await using var player = harness.Factory.Open(ids, file.Size, partSize);
            await StreamAssert.ReadsExactlyAsync(player, file, partSize, Token);
        }

        foreach (var (file, ids) in layouts)
        {
            var hits = harness.Factory.Cache.Hits;
            await using var probe = harness.Factory.Open(ids, file.Size, partSize);
            probe.LimitReadAhead(64 * 1024);
            await StreamAssert.ReadsExactlyAsync(probe, file, 64 * 1024, Token);
            Assert.True(harness.Factory.Cache.Hits == hits + 1, $"{file.Name}: its first segment was not kept");
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task Opening_a_file_probed_before_fetches_nothing()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("open.bin", 20L * SegmentSize, SegmentSize);
        await using var harness = Create(NoRacing, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsExactlyAsync(stream, file, 1000, Token);
        }
        var before = server.Stats.GetCommandCount(MockCommandKind.Body);
        await using (var again = await harness.OpenAsync(file))
        {
            Assert.Equal(before, server.Stats.GetCommandCount(MockCommandKind.Body));
            await StreamAssert.ReadsExactlyAsync(again, file, 1000, Token);
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_reader_whose_shared_fetch_goes_away_with_the_other_stream_fetches_it_itself()
    {
        // Slow answers: the follower subscribes to fetches the leader has not received yet, then
        // the leader closes and its group drops them unanswered.
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(150));
        var file = server.Store.AddGeneratedFile("orphan.bin", 40L * SegmentSize, SegmentSize);
        await using var harness = Create(NoRacing, Provider(server));
        var ids = file.Articles.Select(a => a.MessageId).ToList();

        var leader = harness.Factory.Open(ids, file.Size, SegmentSize);
        await using var follower = harness.Factory.Open(ids, file.Size, SegmentSize);
        var leading = Task.Run(async () => await StreamAssert.ReadsExactlyAsync(leader, file, 100, Token), Token);
        await leading;
        // The leader asked for its start read-ahead; the follower's first read joins those fetches.
        var following = Task.Run(() => StreamAssert.ReadsToEndExactlyAsync(follower, file, 64 * 1024, Token), Token);
        await leader.DisposeAsync();
        await following;

        Assert.Equal(file.Size, follower.Statistics.BytesRead);
        await follower.DisposeAsync();
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task The_cache_stays_within_its_size()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("bounded.bin", 100L * SegmentSize, SegmentSize);
        var capacity = 8L * SegmentSize;
        await using var harness = Create(NoRacing with { SegmentCacheBytes = capacity }, Provider(server));
        var ids = file.Articles.Select(a => a.MessageId).ToList();

        for (var segment = 0; segment < 30; segment++)
        {
            await using var probe = harness.Factory.Open(ids, file.Size, SegmentSize);
            var at = segment * 3L * SegmentSize;
            probe.LimitReadAhead(at + 1000);
            probe.Position = at;
            await StreamAssert.ReadsExactlyAsync(probe, file, 1000, Token);
            Assert.InRange(harness.Factory.Cache.Bytes, 0, capacity);
        }

        Assert.True(harness.Factory.Cache.Evictions > 0);
        Assert.Equal(capacity, harness.Factory.Cache.Bytes);
        await harness.AssertAllReturnedAsync();
    }
}

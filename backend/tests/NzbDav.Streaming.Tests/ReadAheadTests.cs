using NzbDav.MockNntp;
using NzbDav.Streaming.Tests.Support;
using NzbDav.Usenet.Yenc;
using static NzbDav.Streaming.Tests.Support.StreamHarness;

namespace NzbDav.Streaming.Tests;

/// <summary>How much is fetched: small after a seek, growing while the reader keeps reading, bounded in bytes.</summary>
public sealed class ReadAheadTests
{
    private const int SegmentSize = 32 * 1024;

    // Racing would add requests these tests count; no test here stalls. Idle leases go back at
    // once: a stream holding none has nothing left to fetch, which is what the counts wait for.
    private static readonly StreamingOptions NoRacing = new() { MinimumStragglerDelay = TimeSpan.FromMinutes(5), WorkerIdleTimeout = TimeSpan.FromMilliseconds(20) };

    [Fact]
    public async Task A_seek_and_one_small_read_fetch_only_the_target_segment()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("scrub.bin", 100L * SegmentSize, SegmentSize);
        await using var harness = Create(NoRacing, Provider(server));

        await using (var stream = await harness.Factory.OpenAsync(ToNzb(file), Header(file), Token))
        {
            foreach (var segment in new[] { 10, 50, 90, 20 })
            {
                stream.Position = (segment * (long)SegmentSize) + 1000;
                await StreamAssert.ReadsExactlyAsync(stream, file, 4096, Token);
            }
            await harness.WaitUntilIdleAsync(stream, server, 4);
            Assert.Equal(4, server.Stats.GetCommandCount(MockCommandKind.Body));
            Assert.Equal(4L * SegmentSize, stream.Statistics.BytesFetched);

            // A second read without a seek shows intent to go on: the next segment is fetched too.
            await StreamAssert.ReadsExactlyAsync(stream, file, 4096, Token);
            await harness.WaitUntilIdleAsync(stream, server, 5);
            Assert.Equal(5, server.Stats.GetCommandCount(MockCommandKind.Body));
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_first_read_from_the_start_asks_for_the_start_read_ahead_at_once()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("start.bin", 100L * SegmentSize, SegmentSize);
        await using var harness = Create(NoRacing with { StartReadAheadBytes = 12L * SegmentSize }, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            // One small read: segment 0 is not consumed, so the window cannot have grown past the start size.
            await StreamAssert.ReadsExactlyAsync(stream, file, 4096, Token);
            await harness.WaitUntilIdleAsync(stream, server, 12);
            Assert.Equal(12, server.Stats.GetCommandCount(MockCommandKind.Body));
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_whole_file_stream_opened_while_another_reads_starts_at_the_ranged_read_ahead()
    {
        await using var server = await StartServerAsync();
        var first = server.Store.AddGeneratedFile("first.bin", 100L * SegmentSize, SegmentSize);
        var second = server.Store.AddGeneratedFile("second.bin", 100L * SegmentSize, SegmentSize);
        var options = NoRacing with { StartReadAheadBytes = 12L * SegmentSize, RangedStartReadAheadBytes = 3L * SegmentSize };
        await using var harness = Create(options, Provider(server));

        await using (var alone = await harness.OpenAsync(first))
        {
            await StreamAssert.ReadsExactlyAsync(alone, first, 4096, Token);
            await harness.WaitUntilIdleAsync(alone, server, 12);
            Assert.Equal(12, server.Stats.GetCommandCount(MockCommandKind.Body));

            // The first stream still holds its read-ahead: the newcomer starts small and grows by need.
            await using var newcomer = await harness.OpenAsync(second);
            await StreamAssert.ReadsExactlyAsync(newcomer, second, 4096, Token);
            await harness.WaitUntilIdleAsync(newcomer, server, 12 + 3);
            Assert.Equal(12 + 3, server.Stats.GetCommandCount(MockCommandKind.Body));
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_read_ahead_limit_stops_fetching_at_the_end_the_reader_named()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("limit.bin", 100L * SegmentSize, SegmentSize);
        await using var harness = Create(NoRacing with { StartReadAheadBytes = 12L * SegmentSize }, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            stream.LimitReadAhead((3L * SegmentSize) + 10);
            await StreamAssert.ReadsExactlyAsync(stream, file, (3 * SegmentSize) + 10, Token);
            await harness.WaitUntilIdleAsync(stream, server, 4);
            Assert.Equal(4, server.Stats.GetCommandCount(MockCommandKind.Body)); // nothing beyond segment 3

            // Reading on past the limit still works: the bytes are fetched on demand.
            await StreamAssert.ReadsExactlyAsync(stream, file, 2 * SegmentSize, Token);
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_first_read_after_a_seek_warms_connections_without_fetching_more()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("warm.bin", 100L * SegmentSize, SegmentSize);
        await using var harness = Create(NoRacing with { ConnectionsPerStream = 6 }, Provider(server, maxConnections: 6));

        await using (var stream = await harness.Factory.OpenAsync(ToNzb(file), Header(file), Token))
        {
            stream.Position = (40L * SegmentSize) + 5;
            await StreamAssert.ReadsExactlyAsync(stream, file, 4096, Token);
            for (var i = 0; i < 500 && server.Stats.TotalConnections < 6; i++)
            {
                await Task.Delay(10, Token);
            }
            Assert.Equal(6, server.Stats.TotalConnections);
            await harness.WaitUntilIdleAsync(stream, server, 1);
            Assert.Equal(1, server.Stats.GetCommandCount(MockCommandKind.Body));
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task Read_ahead_never_exceeds_its_byte_budget()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("budget.bin", 300L * SegmentSize, SegmentSize);
        var budget = 10L * SegmentSize;
        await using var harness = Create(NoRacing with { MaxReadAheadBytes = budget, KeepBehindSegments = 1 }, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsExactlyAsync(stream, file, 40 * SegmentSize, Token);
            // The reader stops: fetching must stop at the window.
            await harness.WaitUntilIdleAsync(stream, server, 40);
            var fetched = server.Stats.GetCommandCount(MockCommandKind.Body);
            Assert.InRange(fetched, 40, 40 + 10 + 1);
            // What the stream holds itself; the segment cache keeps the file's first segment besides.
            harness.Factory.Cache.Clear();
            Assert.InRange(harness.Pool.Outstanding * 64 * 1024, 1, budget + (3 * 64 * 1024L * 2));
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_short_seek_back_is_served_from_memory()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("back.bin", 30L * SegmentSize, SegmentSize);
        await using var harness = Create(NoRacing, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsExactlyAsync(stream, file, (6 * SegmentSize) + 100, Token);
            await harness.WaitUntilIdleAsync(stream, server, 7);
            var before = server.Stats.GetCommandCount(MockCommandKind.Body);

            stream.Position = (5L * SegmentSize) + 10; // the segment just consumed
            await StreamAssert.ReadsExactlyAsync(stream, file, SegmentSize, Token);

            await harness.WaitUntilIdleAsync(stream, server, before);
            Assert.Equal(before, server.Stats.GetCommandCount(MockCommandKind.Body));
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_whole_sequential_read_fetches_each_segment_once()
    {
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(2));
        var file = server.Store.AddGeneratedFile("once.bin", (80L * SegmentSize) + 77, SegmentSize);
        await using var harness = Create(NoRacing, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 256 * 1024, Token);
            Assert.Equal(file.Size, stream.Statistics.BytesFetched);
            Assert.Equal(file.Size, stream.Statistics.BytesRead);
            Assert.Equal(file.Articles.Count, stream.Statistics.SegmentsFetched);
        }

        Assert.Equal(file.Articles.Count, server.Stats.GetCommandCount(MockCommandKind.Body));
        await harness.AssertAllReturnedAsync();
    }

    private static YencHeader Header(NzbDav.MockNntp.Articles.MockFile file) =>
        new(file.Name, file.Size, 128, 1, file.Articles.Count, 0, file.Articles[0].PartSize);
}

using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.MockNntp;
using NzbDav.Streaming.Disk;
using NzbDav.Streaming.Tests.Support;
using static NzbDav.Streaming.Tests.Support.StreamHarness;

namespace NzbDav.Streaming.Tests.Disk;

/// <summary>Streams over real sockets with the disk segment cache under the memory cache: what a provider sent once is read from disk after a restart, checked, and never in a reader's way.</summary>
public sealed class DiskCacheStreamingTests : IDisposable
{
    private const int SegmentSize = 64 * 1024;

    private static readonly StreamingOptions NoRacing = new() { MinimumStragglerDelay = TimeSpan.FromMinutes(5), WorkerIdleTimeout = TimeSpan.FromMilliseconds(20) };

    private readonly string _root = Path.Combine(Path.GetTempPath(), "nzbdav-disk-stream-" + Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_root))
            Directory.Delete(_root, recursive: true);
    }

    /// <summary>A disk cache as the server opens it (a new one over the same folder is a restart).</summary>
    private async Task<DiskSegmentCache> OpenDiskAsync(TimeProvider? time = null)
    {
        // Every played segment written: these readers read as fast as the loopback goes, far above a player's bitrate.
        var options = new DiskSegmentStoreOptions { Path = _root, MaxBytes = 256L * 1024 * 1024, PlaybackWriteBytesPerSecond = 0 };
        var cache = new DiskSegmentCache(new FixedOptionsMonitor<DiskSegmentStoreOptions>(options), NullLogger<DiskSegmentCache>.Instance, time ?? TimeProvider.System);
        await cache.StartAsync(Token);
        return cache;
    }

    [Fact]
    public async Task A_file_played_once_is_played_again_after_a_restart_from_disk_without_a_single_provider_fetch()
    {
        await using var server = await StartServerAsync();
        const int segments = 40;
        var file = server.Store.AddGeneratedFile("movie.mkv", segments * (long)SegmentSize - 1000, SegmentSize);
        var ids = file.Articles.Select(a => a.MessageId).ToList();

        await using (var disk = await OpenDiskAsync())
        await using (var harness = CreateWithDisk(disk, NoRacing, Provider(server)))
        {
            await using (var player = harness.Factory.Open(ids, file.Size, SegmentSize))
                await StreamAssert.ReadsToEndExactlyAsync(player, file, 48 * 1024, Token);
            await harness.AssertAllReturnedAsync();
            Assert.Equal(segments, disk.Store!.Written);
        }
        Assert.Equal(segments, server.Stats.GetCommandCount(MockCommandKind.Body));

        // A new process: its memory cache is empty, the disk is not.
        await using (var disk = await OpenDiskAsync())
        await using (var harness = CreateWithDisk(disk, NoRacing, Provider(server)))
        {
            Assert.Equal(segments, disk.Store!.Count);
            await using (var player = harness.Factory.Open(ids, file.Size, SegmentSize))
            {
                await StreamAssert.ReadsToEndExactlyAsync(player, file, 48 * 1024, Token);
                Assert.Equal(file.Size, player.Statistics.BytesFromDisk);
                Assert.Equal(0, player.Statistics.BytesFetched);
            }
            // A seek into the middle and a read of the tail: from disk too.
            await using (var seeker = harness.Factory.Open(ids, file.Size, SegmentSize))
            {
                seeker.Position = file.Size / 2;
                await StreamAssert.ReadsExactlyAsync(seeker, file, 3 * SegmentSize, Token);
                seeker.Position = file.Size - 5000;
                await StreamAssert.ReadsToEndExactlyAsync(seeker, file, 4096, Token);
            }
            Assert.True(disk.Store.Hits >= segments, $"{disk.Store.Hits} disk hits");
            await harness.AssertAllReturnedAsync();
        }
        Assert.Equal(segments, server.Stats.GetCommandCount(MockCommandKind.Body));
    }

    [Fact]
    public async Task A_file_opened_by_its_nzb_learns_its_layout_from_the_first_segment_on_disk()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("probe.mkv", 10L * SegmentSize, SegmentSize);

        await using (var disk = await OpenDiskAsync())
        await using (var harness = CreateWithDisk(disk, NoRacing, Provider(server)))
        {
            await using (var stream = await harness.OpenAsync(file))
                await StreamAssert.ReadsExactlyAsync(stream, file, 1000, Token);
            await harness.AssertAllReturnedAsync();
        }
        var bodies = server.Stats.GetCommandCount(MockCommandKind.Body);

        await using (var disk = await OpenDiskAsync())
        await using (var harness = CreateWithDisk(disk, NoRacing, Provider(server)))
        {
            await using (var stream = await harness.OpenAsync(file))
            {
                await StreamAssert.ReadsExactlyAsync(stream, file, 1000, Token);
                Assert.Equal(0, stream.Statistics.BytesFetched);
            }
            await harness.AssertAllReturnedAsync();
        }
        Assert.Equal(bodies, server.Stats.GetCommandCount(MockCommandKind.Body));
    }

    [Fact]
    public async Task A_flipped_byte_or_a_truncated_cache_file_is_fetched_again_and_counted_and_the_wrong_bytes_are_never_served()
    {
        await using var server = await StartServerAsync();
        const int segments = 12;
        var file = server.Store.AddGeneratedFile("damaged.mkv", segments * (long)SegmentSize, SegmentSize);
        var ids = file.Articles.Select(a => a.MessageId).ToList();
        await using (var disk = await OpenDiskAsync())
        await using (var harness = CreateWithDisk(disk, NoRacing, Provider(server)))
        {
            await using (var player = harness.Factory.Open(ids, file.Size, SegmentSize))
                await StreamAssert.ReadsToEndExactlyAsync(player, file, 48 * 1024, Token);
            await harness.AssertAllReturnedAsync();
        }

        // One segment's data has a flipped byte, another lost its end.
        var flipped = SegmentFile(ids[3]);
        await using (var stream = new FileStream(flipped, FileMode.Open, FileAccess.ReadWrite))
        {
            stream.Position = stream.Length - 7000;
            var one = stream.ReadByte();
            stream.Position = stream.Length - 7000;
            stream.WriteByte((byte)(one ^ 0x01));
        }
        await using (var stream = new FileStream(SegmentFile(ids[8]), FileMode.Open, FileAccess.Write))
            stream.SetLength(stream.Length - 100);

        await using (var disk = await OpenDiskAsync())
        await using (var harness = CreateWithDisk(disk, NoRacing, Provider(server)))
        {
            // The truncated one is dropped when the folder is indexed; the flipped one when its CRC fails.
            Assert.Equal(segments - 1, disk.Store!.Count);
            await using (var player = harness.Factory.Open(ids, file.Size, SegmentSize))
            {
                await StreamAssert.ReadsToEndExactlyAsync(player, file, 48 * 1024, Token);
                Assert.Equal(2L * SegmentSize, player.Statistics.BytesFetched);
            }
            await harness.AssertAllReturnedAsync();
            Assert.Equal(1, disk.Store.CorruptReads);
            // Both were written again from the providers' copies.
            Assert.Equal(segments, disk.Store.Count);
        }
        Assert.Equal(segments + 2, server.Stats.GetCommandCount(MockCommandKind.Body));
    }

    [Fact]
    public async Task A_cache_folder_deleted_while_streaming_leaves_the_stream_whole_and_the_cache_fills_again()
    {
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(2));
        const int segments = 60;
        var file = server.Store.AddGeneratedFile("gone.mkv", segments * (long)SegmentSize, SegmentSize);
        var ids = file.Articles.Select(a => a.MessageId).ToList();
        await using var disk = await OpenDiskAsync();
        await using var harness = CreateWithDisk(disk, NoRacing, Provider(server));
        await using (var player = harness.Factory.Open(ids, file.Size, SegmentSize))
        {
            await StreamAssert.ReadsExactlyAsync(player, file, 20 * SegmentSize, Token);
            await disk.Store!.WhenIdleAsync(Token);
            // Taken away at once (a rename, then deleted): the writer may be adding files at this very moment.
            Directory.Move(_root, _root + ".gone");
            Directory.Delete(_root + ".gone", recursive: true);
            await StreamAssert.ReadsToEndExactlyAsync(player, file, 48 * 1024, Token);
        }
        await harness.AssertAllReturnedAsync();
        Assert.Null(disk.Store.Degraded);

        // The next reader fetches again what went with the folder (the index still named it: a miss,
        // not an error), and the cache holds the whole file once more: a third reader fetches nothing.
        var before = server.Stats.GetCommandCount(MockCommandKind.Body);
        harness.Factory.Cache.Clear();
        await using (var again = harness.Factory.Open(ids, file.Size, SegmentSize))
            await StreamAssert.ReadsToEndExactlyAsync(again, file, 48 * 1024, Token);
        await harness.AssertAllReturnedAsync();
        Assert.InRange(server.Stats.GetCommandCount(MockCommandKind.Body) - before, 20, segments);
        Assert.Equal(segments, disk.Store.Count);
        harness.Factory.Cache.Clear();
        before = server.Stats.GetCommandCount(MockCommandKind.Body);
        await using (var third = harness.Factory.Open(ids, file.Size, SegmentSize))
            await StreamAssert.ReadsToEndExactlyAsync(third, file, 48 * 1024, Token);
        await harness.AssertAllReturnedAsync();
        Assert.Equal(before, server.Stats.GetCommandCount(MockCommandKind.Body));
    }

    private string SegmentFile(string messageId)
    {
        var name = DiskSegmentStore.NameOf(messageId);
        return Path.Combine(_root, name[..2], name + ".seg");
    }
}

using System.Buffers;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Time.Testing;
using NzbDav.Streaming.Disk;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming.Tests.Disk;

/// <summary>The on-disk segment store on a real folder: byte-exact across a restart, checked on read, evicted by kind, off when the disk fails.</summary>
public sealed class DiskSegmentStoreTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "nzbdav-disk-cache-" + Guid.NewGuid().ToString("N"));

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    public void Dispose()
    {
        if (Directory.Exists(_root))
            Directory.Delete(_root, recursive: true);
    }

    private readonly FakeTimeProvider _time = new();

    private Task<DiskSegmentStore> OpenAsync(long maxBytes = 64L * 1024 * 1024, double probeShare = 0.5, long playbackRate = 0) =>
        DiskSegmentStore.OpenAsync(
            new DiskSegmentStoreOptions { Path = _root, MaxBytes = maxBytes, ProbeShare = probeShare, PlaybackWriteBytesPerSecond = playbackRate, MaxSegmentBytes = 4 * 1024 * 1024 },
            NullLogger.Instance, _time, Ct);

    private const string FileName = "file.bin";

    private static byte[] Segment(int seed, int size = 256 * 1024)
    {
        var data = new byte[size];
        new Random(seed).NextBytes(data);
        return data;
    }

    /// <summary>Queues <paramref name="data"/> as a completed part (as a provider's answer would be) and lets go of it.</summary>
    private static void Write(DiskSegmentStore store, string id, byte[] data, DiskSegmentKind kind)
    {
        var buffer = new SegmentBuffer(ArrayPool<byte>.Shared, null, null, "mock");
        buffer.Begin(new YencHeader(FileName, 1L << 30, 128, 3, 1000, 2L * data.Length, data.Length));
        for (var at = 0; at < data.Length;)
        {
            var span = buffer.GetSpan();
            data.AsSpan(at, span.Length).CopyTo(span);
            buffer.Advance(span.Length);
            at += span.Length;
        }
        buffer.Complete(new YencTrailer(data.Length, 3, null, null));
        store.Write(id, buffer, kind);
        buffer.Release();
    }

    private static async Task<byte[]?> ReadAsync(DiskSegmentStore store, string id)
    {
        var buffer = await store.ReadAsync(id, ArrayPool<byte>.Shared, Ct);
        if (buffer is null)
            return null;
        try
        {
            Assert.True(buffer.IsCompleted);
            // The part header comes back too: a stream learns the file's layout from it.
            Assert.Equal(new YencHeader(FileName, 1L << 30, 128, 3, 1000, 2L * buffer.Size, buffer.Size), buffer.Header);
            Assert.Equal(DiskSegmentStore.ProviderName, buffer.Provider);
            var data = new byte[buffer.Size];
            buffer.CopyTo(0, data);
            return data;
        }
        finally
        {
            buffer.Release();
        }
    }

    [Fact]
    public async Task A_segment_written_reads_back_byte_exact_and_still_does_after_a_restart()
    {
        var data = Segment(1);
        await using (var store = await OpenAsync())
        {
            Assert.Null(await ReadAsync(store, "part1@example"));
            Write(store, "<part1@example>", data, DiskSegmentKind.Playback);
            await store.WhenIdleAsync(Ct);
            Assert.Equal(data, await ReadAsync(store, "part1@example"));
            Assert.Equal((1L, 1L, (long)data.Length, 1L), (store.Written, store.Hits, store.Bytes, store.Misses));
        }

        // A new process over the same folder finds it, and its kind.
        await using (var again = await OpenAsync())
        {
            Assert.Equal((1, (long)data.Length), (again.Count, again.Bytes));
            Assert.Equal(data, await ReadAsync(again, "<part1@example>"));
            Assert.Null(await ReadAsync(again, "other@example"));
        }

        // Only fixed-length hex names in two-letter folders: a message-id never becomes a path.
        var files = Directory.GetFiles(_root, "*", SearchOption.AllDirectories);
        var file = Assert.Single(files);
        Assert.Matches("^[0-9a-f]{64}\\.seg$", Path.GetFileName(file));
        Assert.Equal(16 + 28 + FileName.Length + data.Length, new FileInfo(file).Length);
    }

    [Fact]
    public async Task Bytes_that_changed_on_disk_are_a_miss_the_file_is_deleted_and_it_is_counted()
    {
        await using var store = await OpenAsync();
        var data = Segment(2);
        Write(store, "flip@example", data, DiskSegmentKind.Probe);
        await store.WhenIdleAsync(Ct);
        var file = Directory.GetFiles(_root, "*.seg", SearchOption.AllDirectories).Single();
        await using (var stream = new FileStream(file, FileMode.Open, FileAccess.ReadWrite))
        {
            stream.Position = 16 + 1000;
            var one = stream.ReadByte();
            stream.Position = 16 + 1000;
            stream.WriteByte((byte)(one ^ 0x20));
        }

        Assert.Null(await ReadAsync(store, "flip@example"));
        Assert.Equal((1L, 0L, 0), (store.CorruptReads, store.Hits, store.Count));
        Assert.False(File.Exists(file));

        // Written again (fetched again from a provider), it is served again.
        Write(store, "flip@example", data, DiskSegmentKind.Probe);
        await store.WhenIdleAsync(Ct);
        Assert.Equal(data, await ReadAsync(store, "flip@example"));
    }

    [Fact]
    public async Task A_truncated_file_or_a_torn_write_is_dropped_at_start()
    {
        await using (var store = await OpenAsync())
        {
            Write(store, "whole@example", Segment(3), DiskSegmentKind.Playback);
            Write(store, "cut@example", Segment(4), DiskSegmentKind.Playback);
            await store.WhenIdleAsync(Ct);
        }

        var cut = Directory.GetFiles(_root, DiskSegmentStore.NameOf("cut@example") + ".seg", SearchOption.AllDirectories).Single();
        await using (var stream = new FileStream(cut, FileMode.Open, FileAccess.Write))
            stream.SetLength(stream.Length - 10);
        var torn = Path.Combine(Path.GetDirectoryName(cut)!, DiskSegmentStore.NameOf("torn@example") + ".seg.tmp");
        await File.WriteAllBytesAsync(torn, Segment(5, 100), Ct);

        await using var again = await OpenAsync();
        Assert.Equal(1, again.Count);
        Assert.NotNull(await ReadAsync(again, "whole@example"));
        Assert.Null(await ReadAsync(again, "cut@example"));
        Assert.False(File.Exists(cut));
        Assert.False(File.Exists(torn));
    }

    [Fact]
    public async Task One_long_movie_played_once_does_not_flush_the_heads_and_tails_scanners_read()
    {
        // 8 MiB of room, 256 KiB segments: 32 fit. Twenty files' heads and tails are probed (40 segments:
        // more than the probe share of 16, so the oldest probes go), then a 200-segment movie is played once.
        await using var store = await OpenAsync(maxBytes: 8L * 1024 * 1024, probeShare: 0.5);
        for (var file = 0; file < 20; file++)
        {
            Write(store, $"head{file}@lib", Segment(100 + file), DiskSegmentKind.Probe);
            Write(store, $"tail{file}@lib", Segment(200 + file), DiskSegmentKind.Probe);
        }

        await store.WhenIdleAsync(Ct);
        for (var part = 0; part < 200; part++)
        {
            Write(store, $"movie{part}@lib", Segment(1000 + part), DiskSegmentKind.Playback);
            if (part % 16 == 15)
                await store.WhenIdleAsync(Ct);
        }

        await store.WhenIdleAsync(Ct);
        Assert.InRange(store.Bytes, 1, 8L * 1024 * 1024);
        // The newest probes (files 12–19: 16 segments, the probe share) are all still there after the movie.
        for (var file = 12; file < 20; file++)
        {
            Assert.NotNull(await ReadAsync(store, $"head{file}@lib"));
            Assert.NotNull(await ReadAsync(store, $"tail{file}@lib"));
        }

        Assert.Equal(4L * 1024 * 1024, store.ProbeBytes);
        Assert.True(store.EvictedPlayback >= 200 - 16, $"{store.EvictedPlayback} playback segments evicted");
        Assert.Equal(24, store.EvictedProbes); // only those beyond the share, never for the movie
        // The movie's last segments fill the rest.
        Assert.NotNull(await ReadAsync(store, "movie199@lib"));
        Assert.Null(await ReadAsync(store, "movie0@lib"));
    }

    [Fact]
    public async Task Played_segments_coming_faster_than_the_playback_write_rate_are_skipped_and_probes_never_are()
    {
        // 16 MiB/s with a burst of a sixteenth of a second: 1 MiB, four of these 256 KiB segments, at once.
        await using var store = await OpenAsync(playbackRate: 16L * 1024 * 1024);
        for (var part = 0; part < 8; part++)
            Write(store, $"fast{part}@lib", Segment(400 + part), DiskSegmentKind.Playback);
        Write(store, "head@lib", Segment(499), DiskSegmentKind.Probe);
        await store.WhenIdleAsync(Ct);
        Assert.Equal((5L, 4L), (store.Written, store.SkippedPlayback));
        Assert.NotNull(await ReadAsync(store, "head@lib"));

        // The allowance refills at the rate: 30 ms later it holds 480 KiB, room for two more.
        _time.Advance(TimeSpan.FromMilliseconds(30));
        for (var part = 8; part < 16; part++)
            Write(store, $"fast{part}@lib", Segment(400 + part), DiskSegmentKind.Playback);
        await store.WhenIdleAsync(Ct);
        Assert.Equal((7L, 10L), (store.Written, store.SkippedPlayback));

        // A segment larger than the whole burst is still written when the allowance is full.
        _time.Advance(TimeSpan.FromSeconds(1));
        Write(store, "huge@lib", Segment(500, 3 * 1024 * 1024 / 2), DiskSegmentKind.Playback);
        await store.WhenIdleAsync(Ct);
        Assert.Equal(8L, store.Written);
    }

    [Fact]
    public async Task A_playback_segment_a_scanner_reads_again_is_promoted_to_probe()
    {
        await using var store = await OpenAsync(maxBytes: 2L * 1024 * 1024, probeShare: 0.5);
        Write(store, "shared@lib", Segment(7), DiskSegmentKind.Playback);
        await store.WhenIdleAsync(Ct);
        Write(store, "shared@lib", Segment(7), DiskSegmentKind.Probe);
        await store.WhenIdleAsync(Ct);
        Assert.Equal(256L * 1024, store.ProbeBytes);
        for (var part = 0; part < 12; part++)
            Write(store, $"play{part}@lib", Segment(300 + part), DiskSegmentKind.Playback);
        await store.WhenIdleAsync(Ct);
        Assert.NotNull(await ReadAsync(store, "shared@lib"));
        Assert.Equal(1L, store.Written - 12); // the second write only promoted it
    }

    [Fact]
    public async Task A_disk_that_fails_stops_the_writes_with_the_reason_no_read_fails_and_it_recovers_once_the_disk_is_back()
    {
        await using var store = await OpenAsync();
        Write(store, "before@example", Segment(8), DiskSegmentKind.Playback);
        await store.WhenIdleAsync(Ct);

        // The folder a new segment needs is a file now: every write there fails, as on a full or read-only disk.
        var name = DiskSegmentStore.NameOf("after@example");
        var blocked = Path.Combine(_root, name[..2]);
        if (Directory.Exists(blocked))
            Directory.Delete(blocked, recursive: true);
        await File.WriteAllTextAsync(blocked, "not a folder", Ct);
        Write(store, "after@example", Segment(9), DiskSegmentKind.Playback);
        await store.WhenIdleAsync(Ct);

        Assert.NotNull(store.Degraded);
        Assert.Contains(_root, store.Degraded, StringComparison.Ordinal);
        Assert.Null(await ReadAsync(store, "after@example"));
        // What is on disk is still served: a full disk has lost nothing.
        Assert.Equal(Segment(8), await ReadAsync(store, "before@example"));
        Write(store, "later@example", Segment(10), DiskSegmentKind.Playback);
        Assert.True(store.DroppedWrites >= 2);

        // Before the retry interval nothing is tried; after it, one write is, and it works: the store is back.
        File.Delete(blocked);
        _time.Advance(TimeSpan.FromSeconds(29));
        Write(store, "after@example", Segment(9), DiskSegmentKind.Playback);
        await store.WhenIdleAsync(Ct);
        Assert.NotNull(store.Degraded);
        _time.Advance(TimeSpan.FromSeconds(1));
        Write(store, "after@example", Segment(9), DiskSegmentKind.Playback);
        await store.WhenIdleAsync(Ct);
        Assert.Null(store.Degraded);
        Assert.Equal(Segment(9), await ReadAsync(store, "after@example"));
        Write(store, "later@example", Segment(10), DiskSegmentKind.Playback);
        await store.WhenIdleAsync(Ct);
        Assert.Equal(Segment(10), await ReadAsync(store, "later@example"));
    }

    [Fact]
    public async Task A_folder_that_cannot_be_made_opens_degraded_instead_of_failing_the_server()
    {
        var file = Path.Combine(Path.GetTempPath(), "nzbdav-not-a-folder-" + Guid.NewGuid().ToString("N"));
        await File.WriteAllTextAsync(file, "x", Ct);
        try
        {
            await using var store = await DiskSegmentStore.OpenAsync(new DiskSegmentStoreOptions { Path = file }, NullLogger.Instance, _time, Ct);
            Assert.StartsWith($"cannot use {file}", store.Degraded, StringComparison.Ordinal);
            Assert.Null(await ReadAsync(store, "x@y"));
        }
        finally
        {
            File.Delete(file);
        }
    }
}

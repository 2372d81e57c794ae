using System.Buffers;
using System.Text;
using System.Threading.Channels;
using Microsoft.Extensions.Logging;

namespace NzbDav.Streaming.Disk;

/// <summary>Why a segment is kept on disk: what a probe reads is kept longer than what one pass of playback read.</summary>
public enum DiskSegmentKind : byte
{
    /// <summary>Read by a player going through the file: evicted first.</summary>
    Playback = 0,

    /// <summary>A file's first or last segments, or what a scanner (Plex, ffprobe, Sonarr) read: kept longer.</summary>
    Probe = 1,
}

/// <summary>
/// Decoded segments on disk, keyed by message-id, surviving restarts: one file per segment
/// (<c>ab/abcdef….seg</c>, named by the SHA-256 of the message-id) holding a 16-byte header, the
/// part's yEnc header (so a stream can learn a file's layout from disk alone) and the decoded bytes,
/// with a CRC-32 over both, checked on every read: a mismatch deletes the file, counts, and reads as
/// a miss, so wrong bytes are never served. Writes are queued and done by one background task that
/// holds a reference on the segment's buffer meanwhile, so a reader never waits for the disk and
/// nothing is copied; a full queue drops the write. Eviction by size in two LRU lists: playback
/// segments go first, and probe segments (heads, tails, what scanners read) only once they hold
/// more than <see cref="DiskSegmentStoreOptions.ProbeShare"/> of the space, so one long movie played
/// once cannot flush every file's head and tail. A disk that fails (full, gone, read-only) stops the
/// writes with the reason in <see cref="Degraded"/>, never failing a read; a write is tried again
/// after <see cref="DiskSegmentStoreOptions.RetrySeconds"/>, and the store is back once one works.
/// </summary>
public sealed partial class DiskSegmentStore : IAsyncDisposable
{
    /// <summary>The provider name a segment read from disk carries (a stream that refuses it fetches from the providers).</summary>
    public const string ProviderName = "disk cache";

    private const uint Magic = 0x4344_5A4E; // "NZDC" little-endian
    private const byte Version = 2;
    private const int HeaderSize = 16;
    private const int FixedMetaSize = 28;
    private const int MaxNameBytes = 1024;
    private static readonly UTF8Encoding StrictUtf8 = new(false, true);

    private readonly Lock _gate = new();
    private readonly Dictionary<string, Entry> _entries = new(StringComparer.Ordinal);
    private readonly LinkedList<Entry> _playback = new();
    private readonly LinkedList<Entry> _probe = new();
    private readonly Channel<PendingWrite> _writes;
    private readonly DiskSegmentStoreOptions _options;
    private readonly ILogger _logger;
    private readonly TimeProvider _time;
    private readonly Task _writer;
    private readonly Channel<PendingRead> _reads;
    private readonly Task[] _readers;
    private long _maxBytes;
    private long _bytes;
    private long _probeBytes;
    private long _hits;
    private long _hitBytes;
    private long _misses;
    private long _written;
    private long _writtenBytes;
    private long _dropped;
    private long _corrupt;
    private long _evictedPlayback;
    private long _evictedProbes;
    private long _queuedBytes;
    private long _skippedPlayback;
    private double _playbackTokens;
    private long _playbackRefilledAt;
    private readonly HashSet<string> _folders = new(StringComparer.Ordinal);
    private int _pendingWrites;
    private int _retrying;
    private long _degradedAt;
    private string? _degraded;
    private TaskCompletionSource _idle = NewIdle(completed: true);

    private DiskSegmentStore(DiskSegmentStoreOptions options, ILogger logger, TimeProvider time)
    {
        _options = options;
        _logger = logger;
        _time = time;
        _maxBytes = options.MaxBytes;
        _playbackTokens = PlaybackBurst(options);
        _playbackRefilledAt = time.GetTimestamp();
        _writes = Channel.CreateBounded<PendingWrite>(new BoundedChannelOptions(options.MaxQueuedWrites)
        {
            SingleReader = true,
            FullMode = BoundedChannelFullMode.DropWrite,
        });
        _writer = Task.Run(WriteLoopAsync);
        _reads = Channel.CreateUnbounded<PendingRead>(new UnboundedChannelOptions { SingleReader = false });
        _readers = [.. Enumerable.Range(0, ReaderLoops).Select(_ => Task.Run(ReadLoopAsync))];
    }

    /// <summary>Opens the store at <see cref="DiskSegmentStoreOptions.Path"/>, indexing what an earlier run left there.</summary>
    public static async Task<DiskSegmentStore> OpenAsync(DiskSegmentStoreOptions options, ILogger logger, TimeProvider time, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(logger);
        ArgumentNullException.ThrowIfNull(time);
        options.Validate();
        if (!options.Enabled)
            throw new ArgumentException("Cache:Path is empty: the disk cache is off, and no store should be opened.");
        var store = new DiskSegmentStore(options, logger, time);
        try
        {
            Directory.CreateDirectory(options.Path);
            await Task.Run(() => store.Index(cancellationToken), cancellationToken).ConfigureAwait(false);
        }
        catch (Exception error) when (error is IOException or UnauthorizedAccessException)
        {
            store.Degrade($"cannot use {options.Path}: {error.Message}");
        }

        return store;
    }

    /// <summary>The folder the segments live in.</summary>
    public string Path => _options.Path;

    /// <summary>The most segment bytes kept; lowering it evicts at the next write.</summary>
    public long MaxBytes
    {
        get => Volatile.Read(ref _maxBytes);
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, DiskSegmentStoreOptions.MinBytes);
            Volatile.Write(ref _maxBytes, value);
        }
    }

    /// <summary>Bytes of segment data on disk now (headers not counted).</summary>
    public long Bytes => Volatile.Read(ref _bytes);

    /// <summary>Of those, probe segments.</summary>
    public long ProbeBytes => Volatile.Read(ref _probeBytes);

    /// <summary>Segments on disk now.</summary>
    public int Count
    {
        get
        {
            lock (_gate)
            {
                return _entries.Count;
            }
        }
    }

    /// <summary>Segments served from disk, and their bytes (each a provider fetch saved).</summary>
    public long Hits => Volatile.Read(ref _hits);

    public long HitBytes => Volatile.Read(ref _hitBytes);

    /// <summary>Lookups that found nothing usable on disk (absent, corrupt, unreadable).</summary>
    public long Misses => Volatile.Read(ref _misses);

    /// <summary>Segments written, and their bytes.</summary>
    public long Written => Volatile.Read(ref _written);

    public long WrittenBytes => Volatile.Read(ref _writtenBytes);

    /// <summary>Writes dropped because the queue was full or the disk failed.</summary>
    public long DroppedWrites => Volatile.Read(ref _dropped);

    /// <summary>Playback segments not written because played segments came faster than <see cref="DiskSegmentStoreOptions.PlaybackWriteBytesPerSecond"/>.</summary>
    public long SkippedPlayback => Volatile.Read(ref _skippedPlayback);

    /// <summary>Reads whose bytes did not match their stored CRC (the file was deleted; the segment is fetched again).</summary>
    public long CorruptReads => Volatile.Read(ref _corrupt);

    /// <summary>Segments evicted to stay within the size: playback ones, then probe ones beyond their share.</summary>
    public long EvictedPlayback => Volatile.Read(ref _evictedPlayback);

    public long EvictedProbes => Volatile.Read(ref _evictedProbes);

    /// <summary>Why writes are off now, or null while the store works.</summary>
    public string? Degraded => Volatile.Read(ref _degraded);

    /// <summary>
    /// Queues <paramref name="buffer"/> (a completed part, its header known) to be written as
    /// <paramref name="messageId"/>'s segment, with a reference on it until written. Never waits: a
    /// full queue or a failed disk drops the write (counted). A segment already on disk is only
    /// promoted to <paramref name="kind"/> if that keeps it longer.
    /// </summary>
    internal void Write(string messageId, SegmentBuffer buffer, DiskSegmentKind kind)
    {
        ArgumentException.ThrowIfNullOrEmpty(messageId);
        if (!buffer.IsCompleted || buffer.Header is null)
            return;
        var retry = false;
        if (Degraded is not null && !(retry = MayRetry()))
        {
            Interlocked.Increment(ref _dropped);
            return;
        }

        var name = NameOf(messageId);
        lock (_gate)
        {
            if (_entries.TryGetValue(name, out var known))
            {
                Touch(known, kind);
                if (retry)
                    Volatile.Write(ref _retrying, 0);
                return;
            }

            if (kind == DiskSegmentKind.Playback && !retry && !TakePlaybackTokens(buffer.Size))
            {
                _skippedPlayback++;
                return;
            }
        }

        if (buffer.Size > _options.MaxSegmentBytes
            || Interlocked.Add(ref _queuedBytes, buffer.Size) > _options.MaxQueuedBytes
            || !buffer.TryAddReference())
        {
            Interlocked.Add(ref _queuedBytes, -buffer.Size);
            Interlocked.Increment(ref _dropped);
            if (retry)
                Volatile.Write(ref _retrying, 0);
            return;
        }

        BeginWrite();
        if (!_writes.Writer.TryWrite(new PendingWrite(name, buffer, kind, retry)))
            Dropped(buffer, retry);
    }

    /// <summary>True when <paramref name="messageId"/>'s segment is on disk as far as the index knows (a read may still miss).</summary>
    internal bool Contains(string messageId)
    {
        var name = NameOf(messageId);
        lock (_gate)
        {
            return _entries.ContainsKey(name);
        }
    }

    /// <summary>Deletes <paramref name="messageId"/>'s segment (a copy a stream refused), so a good copy can take its place.</summary>
    internal void Remove(string messageId)
    {
        var name = NameOf(messageId);
        Entry? entry;
        lock (_gate)
        {
            if (!_entries.TryGetValue(name, out entry))
                return;
        }

        Forget(name, entry);
        TryDelete(PathOf(name));
    }

    /// <summary>Completes once every write queued so far is on disk (or dropped).</summary>
    public Task WhenIdleAsync(CancellationToken cancellationToken)
    {
        lock (_gate)
            return _idle.Task.WaitAsync(cancellationToken);
    }

    public async ValueTask DisposeAsync()
    {
        _writes.Writer.TryComplete();
        _reads.Writer.TryComplete();
        await _writer.ConfigureAwait(false);
        await Task.WhenAll(_readers).ConfigureAwait(false);
    }

    private void Index(CancellationToken cancellationToken)
    {
        var found = new List<(Entry Entry, DateTime At)>();
        Span<byte> header = stackalloc byte[HeaderSize];
        foreach (var path in Directory.EnumerateFiles(_options.Path, "*", SearchOption.AllDirectories))
        {
            cancellationToken.ThrowIfCancellationRequested();
            var file = new FileInfo(path);
            var name = System.IO.Path.GetFileNameWithoutExtension(path);
            if (file.Extension != ".seg" || !IsName(name))
            {
                // A write cut short by a crash, or something that is not ours in our folder: a .tmp is removed.
                if (file.Extension == ".tmp")
                    TryDelete(path);
                continue;
            }

            try
            {
                using var handle = File.OpenHandle(path);
                if (RandomAccess.Read(handle, header, 0) == HeaderSize
                    && TryParseHeader(header, out var metaLength, out var length, out _, out var kind)
                    && RandomAccess.GetLength(handle) == HeaderSize + metaLength + length)
                {
                    found.Add((new Entry(name, length, kind), file.LastWriteTimeUtc));
                    continue;
                }
            }
            catch (Exception error) when (error is IOException or UnauthorizedAccessException)
            {
            }

            TryDelete(path);
        }

        // Oldest first: the LRU order an earlier run left, as far as the file times tell it.
        List<string>? evicted;
        lock (_gate)
        {
            foreach (var (entry, _) in found.OrderBy(f => f.At))
            {
                _entries[entry.Name] = entry;
                Link(entry);
            }

            evicted = EvictLocked();
        }

        if (evicted is not null)
        {
            foreach (var name in evicted)
                TryDelete(PathOf(name));
        }
    }

    private void Touch(Entry entry, DiskSegmentKind kind)
    {
        Unlink(entry);
        if (kind > entry.Kind)
            entry.Kind = kind;
        Link(entry);
    }

    private void Link(Entry entry)
    {
        entry.Node = (entry.Kind == DiskSegmentKind.Probe ? _probe : _playback).AddLast(entry);
        _bytes += entry.Size;
        if (entry.Kind == DiskSegmentKind.Probe)
            _probeBytes += entry.Size;
    }

    private void Unlink(Entry entry)
    {
        if (entry.Node is null)
            return;
        entry.Node.List!.Remove(entry.Node);
        entry.Node = null;
        _bytes -= entry.Size;
        if (entry.Kind == DiskSegmentKind.Probe)
            _probeBytes -= entry.Size;
    }

    private void Forget(string name, Entry entry)
    {
        lock (_gate)
        {
            if (_entries.TryGetValue(name, out var current) && ReferenceEquals(current, entry))
            {
                Unlink(entry);
                _entries.Remove(name);
            }
        }
    }

    private void Dropped(SegmentBuffer buffer, bool retry)
    {
        Interlocked.Add(ref _queuedBytes, -buffer.Size);
        buffer.Release();
        Interlocked.Increment(ref _dropped);
        if (retry)
            Volatile.Write(ref _retrying, 0);
        EndWrite();
    }

    /// <summary>
    /// Under the lock: whether a played segment of <paramref name="size"/> bytes may be written now. A
    /// player's segments come at its bitrate (a few MB/s); a download at hundreds of MB/s would spend
    /// a core's share on copying into the page cache, for segments that are evicted first anyway.
    /// </summary>
    private bool TakePlaybackTokens(int size)
    {
        var rate = _options.PlaybackWriteBytesPerSecond;
        if (rate <= 0)
            return true;
        var now = _time.GetTimestamp();
        var seconds = _time.GetElapsedTime(_playbackRefilledAt, now).TotalSeconds;
        _playbackRefilledAt = now;
        _playbackTokens = Math.Min(PlaybackBurst(_options), _playbackTokens + (seconds * rate));
        if (_playbackTokens <= 0)
            return false;
        // The allowance may go below zero by one segment, so a segment larger than the burst is still written.
        _playbackTokens -= size;
        return true;
    }

    // A sixteenth of a second's worth: a player's steady rate never notices it, a download's burst stays small.
    private static double PlaybackBurst(DiskSegmentStoreOptions options) => options.PlaybackWriteBytesPerSecond / 16.0;

    /// <summary>While degraded: true for one write at a time once the retry interval has passed since the last failure.</summary>
    private bool MayRetry() =>
        _time.GetElapsedTime(Volatile.Read(ref _degradedAt)) >= TimeSpan.FromSeconds(_options.RetrySeconds)
        && Interlocked.CompareExchange(ref _retrying, 1, 0) == 0;

    private void Degrade(string reason)
    {
        Volatile.Write(ref _degradedAt, _time.GetTimestamp());
        if (Interlocked.Exchange(ref _degraded, reason) is null)
            LogDegraded(_logger, reason, _options.RetrySeconds);
    }

    private void Recovered()
    {
        if (Interlocked.Exchange(ref _degraded, null) is { } reason)
            LogRecovered(_logger, _options.Path, reason);
    }

    private void BeginWrite()
    {
        lock (_gate)
        {
            if (_pendingWrites++ == 0)
                _idle = NewIdle(completed: false);
        }
    }

    private void EndWrite()
    {
        TaskCompletionSource? done = null;
        lock (_gate)
        {
            if (--_pendingWrites == 0)
                done = _idle;
        }

        done?.TrySetResult();
    }

    private static TaskCompletionSource NewIdle(bool completed)
    {
        var idle = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        if (completed)
            idle.SetResult();
        return idle;
    }

    private string PathOf(string name) => System.IO.Path.Combine(_options.Path, name[..2], name + ".seg");

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception error) when (error is IOException or UnauthorizedAccessException)
        {
        }
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "The disk segment cache stopped writing, reads go to the providers: {Reason}; trying again in {RetrySeconds} s")]
    private static partial void LogDegraded(ILogger logger, string reason, int retrySeconds);

    [LoggerMessage(Level = LogLevel.Information, Message = "The disk segment cache at {Path} works again (it had stopped: {Reason})")]
    private static partial void LogRecovered(ILogger logger, string path, string reason);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Disk segment cache: {Name} held {What}; it was deleted and is fetched again")]
    private static partial void LogCorrupt(ILogger logger, string name, string what);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Disk segment cache: reading {Name} failed ({Reason}); fetched from providers instead")]
    private static partial void LogReadFailed(ILogger logger, string name, string reason);

    private sealed class Entry(string name, int size, DiskSegmentKind kind)
    {
        public string Name { get; } = name;

        public int Size { get; } = size;

        public DiskSegmentKind Kind { get; set; } = kind;

        public LinkedListNode<Entry>? Node { get; set; }
    }

    private sealed record PendingRead(string Name, Entry Entry, ArrayPool<byte> Pool, CancellationToken CancellationToken)
    {
        public TaskCompletionSource<SegmentBuffer?> Result { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);
    }

    private readonly record struct PendingWrite(string Name, SegmentBuffer Buffer, DiskSegmentKind Kind, bool Retry);
}

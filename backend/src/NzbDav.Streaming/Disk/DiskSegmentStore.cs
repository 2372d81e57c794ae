using System.Buffers;
using System.Buffers.Binary;
using System.Security.Cryptography;
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
/// (<c>ab/abcdef….seg</c>, named by the SHA-256 of the message-id), a 16-byte header with the length
/// and CRC-32 of the bytes, checked on every read (a mismatch deletes the file, counts, and reads as
/// a miss). Writes are queued and done by one background task, so a reader never waits for the disk;
/// a full queue drops the write. Eviction by size in two LRU lists: playback segments go first, and
/// probe segments (heads, tails, what scanners read) only once they hold more than
/// <see cref="DiskSegmentStoreOptions.ProbeShare"/> of the space, so one long movie played once
/// cannot flush every file's head and tail. A disk that fails (full, gone, read-only) turns the
/// store off with the reason in <see cref="Degraded"/>: reads miss, nothing is written, no read fails.
/// </summary>
public sealed partial class DiskSegmentStore : IAsyncDisposable
{
    private const uint Magic = 0x4344_5A4E; // "NZDC" little-endian
    private const byte Version = 1;
    private const int HeaderSize = 16;

    private readonly Lock _gate = new();
    private readonly Dictionary<string, Entry> _entries = new(StringComparer.Ordinal);
    private readonly LinkedList<Entry> _playback = new();
    private readonly LinkedList<Entry> _probe = new();
    private readonly Channel<PendingWrite> _writes;
    private readonly DiskSegmentStoreOptions _options;
    private readonly ILogger _logger;
    private readonly Task _writer;
    private long _bytes;
    private long _probeBytes;
    private long _hits;
    private long _hitBytes;
    private long _misses;
    private long _written;
    private long _writtenBytes;
    private long _dropped;
    private long _corrupt;
    private long _evictedBySize;
    private long _evictedProbes;
    private int _pendingWrites;
    private string? _degraded;
    private TaskCompletionSource _idle = NewIdle(completed: true);

    private DiskSegmentStore(DiskSegmentStoreOptions options, ILogger logger)
    {
        _options = options;
        _logger = logger;
        _writes = Channel.CreateBounded<PendingWrite>(new BoundedChannelOptions(options.MaxQueuedWrites)
        {
            SingleReader = true,
            FullMode = BoundedChannelFullMode.DropWrite,
        });
        _writer = Task.Run(WriteLoopAsync);
    }

    /// <summary>Opens the store at <see cref="DiskSegmentStoreOptions.Path"/>, indexing what an earlier run left there.</summary>
    public static async Task<DiskSegmentStore> OpenAsync(DiskSegmentStoreOptions options, ILogger logger, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(logger);
        options.Validate();
        var store = new DiskSegmentStore(options, logger);
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

    public long Hits => Volatile.Read(ref _hits);

    public long HitBytes => Volatile.Read(ref _hitBytes);

    public long Misses => Volatile.Read(ref _misses);

    /// <summary>Segments written, and their bytes.</summary>
    public long Written => Volatile.Read(ref _written);

    public long WrittenBytes => Volatile.Read(ref _writtenBytes);

    /// <summary>Writes dropped because the queue was full or the store is degraded.</summary>
    public long DroppedWrites => Volatile.Read(ref _dropped);

    /// <summary>Reads whose bytes did not match their stored CRC (the file was deleted; the segment is fetched again).</summary>
    public long CorruptReads => Volatile.Read(ref _corrupt);

    /// <summary>Segments evicted to stay within the size: playback ones, then probe ones beyond their share.</summary>
    public long EvictedPlayback => Volatile.Read(ref _evictedBySize);

    public long EvictedProbes => Volatile.Read(ref _evictedProbes);

    /// <summary>Why the store is off (reads miss, nothing is written), or null while it works.</summary>
    public string? Degraded => Volatile.Read(ref _degraded);

    /// <summary>
    /// Queues <paramref name="data"/> to be written as <paramref name="messageId"/>'s decoded bytes;
    /// copies it, so the caller may reuse its buffer at once. Never waits: a full queue or a degraded
    /// store drops the write (counted). A segment already on disk is only promoted to
    /// <paramref name="kind"/> if that keeps it longer.
    /// </summary>
    public void Write(string messageId, ReadOnlySpan<byte> data, DiskSegmentKind kind)
    {
        ArgumentException.ThrowIfNullOrEmpty(messageId);
        if (Degraded is not null || data.Length == 0 || data.Length > _options.MaxSegmentBytes)
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
                return;
            }
        }

        var copy = ArrayPool<byte>.Shared.Rent(data.Length);
        data.CopyTo(copy);
        BeginWrite();
        if (!_writes.Writer.TryWrite(new PendingWrite(name, copy, data.Length, kind)))
        {
            ArrayPool<byte>.Shared.Return(copy);
            Interlocked.Increment(ref _dropped);
            EndWrite();
        }
    }

    /// <summary>
    /// <paramref name="messageId"/>'s decoded bytes if they are on disk and match their CRC, in a
    /// pooled buffer the caller returns with <see cref="DiskSegment.Dispose"/>; null on a miss.
    /// </summary>
    public async ValueTask<DiskSegment?> ReadAsync(string messageId, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrEmpty(messageId);
        var name = NameOf(messageId);
        Entry? entry;
        lock (_gate)
        {
            if (Degraded is not null || !_entries.TryGetValue(name, out entry))
            {
                _misses++;
                return null;
            }

            Touch(entry, entry.Kind);
        }

        byte[]? buffer = null;
        try
        {
            var file = new FileStream(PathOf(name), FileMode.Open, FileAccess.Read, FileShare.Read | FileShare.Delete, 1, FileOptions.Asynchronous);
            await using var closing = file.ConfigureAwait(false);
            var header = new byte[HeaderSize];
            await file.ReadExactlyAsync(header, cancellationToken).ConfigureAwait(false);
            if (!TryParseHeader(header, out var length, out var crc, out _) || length != entry.Size)
                return Corrupt(name, entry, "a header that does not match the index");
            buffer = ArrayPool<byte>.Shared.Rent(length);
            await file.ReadExactlyAsync(buffer.AsMemory(0, length), cancellationToken).ConfigureAwait(false);
            if (System.IO.Hashing.Crc32.HashToUInt32(buffer.AsSpan(0, length)) != crc)
            {
                ArrayPool<byte>.Shared.Return(buffer);
                buffer = null;
                return Corrupt(name, entry, "bytes that do not match their CRC-32");
            }

            Interlocked.Increment(ref _hits);
            Interlocked.Add(ref _hitBytes, length);
            var segment = new DiskSegment(buffer, length);
            buffer = null;
            return segment;
        }
        catch (EndOfStreamException)
        {
            return Corrupt(name, entry, "a file shorter than its header says");
        }
        catch (Exception error) when (error is IOException or UnauthorizedAccessException)
        {
            // Gone under us (deleted by hand, evicted meanwhile) or unreadable: a miss, never a failed read.
            Forget(name, entry);
            lock (_gate)
                _misses++;
            if (error is not FileNotFoundException and not DirectoryNotFoundException)
                LogReadFailed(_logger, name, error.Message);
            return null;
        }
        finally
        {
            if (buffer is not null)
                ArrayPool<byte>.Shared.Return(buffer);
        }
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
        await _writer.ConfigureAwait(false);
    }

    private DiskSegment? Corrupt(string name, Entry entry, string what)
    {
        Interlocked.Increment(ref _corrupt);
        lock (_gate)
            _misses++;
        LogCorrupt(_logger, name, what);
        Forget(name, entry);
        TryDelete(PathOf(name));
        return null;
    }

    private async Task WriteLoopAsync()
    {
        await foreach (var pending in _writes.Reader.ReadAllAsync().ConfigureAwait(false))
        {
            try
            {
                if (Degraded is null)
                    await WriteOneAsync(pending).ConfigureAwait(false);
                else
                    Interlocked.Increment(ref _dropped);
            }
            catch (Exception error) when (error is IOException or UnauthorizedAccessException)
            {
                Interlocked.Increment(ref _dropped);
                Degrade($"writing to {_options.Path} failed: {error.Message}");
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(pending.Buffer);
                EndWrite();
            }
        }
    }

    private async Task WriteOneAsync(PendingWrite pending)
    {
        lock (_gate)
        {
            if (_entries.TryGetValue(pending.Name, out var known))
            {
                Touch(known, pending.Kind);
                return;
            }
        }

        var path = PathOf(pending.Name);
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(path)!);
        var temporary = path + ".tmp";
        var header = new byte[HeaderSize];
        WriteHeader(header, pending.Length, System.IO.Hashing.Crc32.HashToUInt32(pending.Buffer.AsSpan(0, pending.Length)), pending.Kind);
        var file = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None, 1, FileOptions.Asynchronous);
        await using (file.ConfigureAwait(false))
        {
            await file.WriteAsync(header).ConfigureAwait(false);
            await file.WriteAsync(pending.Buffer.AsMemory(0, pending.Length)).ConfigureAwait(false);
        }

        File.Move(temporary, path, overwrite: true);
        List<string>? evicted;
        lock (_gate)
        {
            var entry = new Entry(pending.Name, pending.Length, pending.Kind);
            _entries[pending.Name] = entry;
            Link(entry);
            evicted = EvictLocked();
        }

        Interlocked.Increment(ref _written);
        Interlocked.Add(ref _writtenBytes, pending.Length);
        if (evicted is not null)
        {
            foreach (var name in evicted)
                TryDelete(PathOf(name));
        }
    }

    /// <summary>Drops least recently used segments until the store fits: playback first, probes beyond their share, then any.</summary>
    private List<string>? EvictLocked()
    {
        List<string>? evicted = null;
        var probeLimit = (long)(_options.MaxBytes * _options.ProbeShare);
        while (_bytes > _options.MaxBytes)
        {
            LinkedList<Entry> from = _probeBytes > probeLimit || _playback.First is null ? _probe : _playback;
            var victim = from.First!.Value;
            if (victim.Kind == DiskSegmentKind.Probe)
                _evictedProbes++;
            else
                _evictedBySize++;
            Unlink(victim);
            _entries.Remove(victim.Name);
            (evicted ??= []).Add(victim.Name);
        }

        return evicted;
    }

    private void Index(CancellationToken cancellationToken)
    {
        var found = new List<(Entry Entry, DateTime At)>();
        var header = new byte[HeaderSize];
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
                using var stream = file.OpenRead();
                if (stream.Read(header) == HeaderSize && TryParseHeader(header, out var length, out _, out var kind) && stream.Length == HeaderSize + length)
                {
                    found.Add((new Entry(name, length, kind), file.LastWriteTimeUtc));
                    continue;
                }
            }
            catch (IOException)
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

    private void Degrade(string reason)
    {
        if (Interlocked.CompareExchange(ref _degraded, reason, null) is null)
            LogDegraded(_logger, reason);
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

    /// <summary>The file name of a message-id: hex SHA-256, so any id (slashes, dots, length) makes a safe, fixed-length name.</summary>
    internal static string NameOf(string messageId)
    {
        Span<byte> hash = stackalloc byte[32];
        var bytes = Encoding.UTF8.GetBytes(messageId.Trim().Trim('<', '>'));
        SHA256.HashData(bytes, hash);
        return Convert.ToHexStringLower(hash);
    }

    private static bool IsName(string name) => name.Length == 64 && name.All(char.IsAsciiHexDigitLower);

    private static void WriteHeader(Span<byte> header, int length, uint crc, DiskSegmentKind kind)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(header, Magic);
        header[4] = Version;
        header[5] = (byte)kind;
        header[6] = 0;
        header[7] = 0;
        BinaryPrimitives.WriteInt32LittleEndian(header[8..], length);
        BinaryPrimitives.WriteUInt32LittleEndian(header[12..], crc);
    }

    private static bool TryParseHeader(ReadOnlySpan<byte> header, out int length, out uint crc, out DiskSegmentKind kind)
    {
        length = BinaryPrimitives.ReadInt32LittleEndian(header[8..]);
        crc = BinaryPrimitives.ReadUInt32LittleEndian(header[12..]);
        kind = (DiskSegmentKind)header[5];
        return BinaryPrimitives.ReadUInt32LittleEndian(header) == Magic && header[4] == Version
            && kind is DiskSegmentKind.Playback or DiskSegmentKind.Probe && length > 0;
    }

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

    [LoggerMessage(Level = LogLevel.Warning, Message = "The disk segment cache is off, reads fetch from providers: {Reason}")]
    private static partial void LogDegraded(ILogger logger, string reason);

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

    private readonly record struct PendingWrite(string Name, byte[] Buffer, int Length, DiskSegmentKind Kind);
}

/// <summary>A segment read from disk: its bytes in a pooled buffer, returned on dispose.</summary>
public sealed class DiskSegment : IDisposable
{
    private byte[]? _buffer;

    internal DiskSegment(byte[] buffer, int length)
    {
        _buffer = buffer;
        Length = length;
    }

    public int Length { get; }

    public ReadOnlySpan<byte> Span => (_buffer ?? throw new ObjectDisposedException(nameof(DiskSegment))).AsSpan(0, Length);

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _buffer, null) is { } buffer)
            ArrayPool<byte>.Shared.Return(buffer);
    }
}

/// <summary>Where and how much (<c>Cache:Path</c>, <c>Cache:MaxBytes</c>); no path, no disk cache.</summary>
public sealed class DiskSegmentStoreOptions
{
    public const string SectionName = "Cache";

    /// <summary>The folder the segments live in; null or empty turns the disk cache off.</summary>
    public string Path { get; set; } = "";

    /// <summary>The most segment bytes kept on disk. Default 10 GiB.</summary>
    public long MaxBytes { get; set; } = 10L * 1024 * 1024 * 1024;

    /// <summary>The share of <see cref="MaxBytes"/> probe segments may keep against playback. Default 0.5.</summary>
    public double ProbeShare { get; set; } = 0.5;

    /// <summary>Writes waiting for the disk before new ones are dropped. Default 256.</summary>
    public int MaxQueuedWrites { get; set; } = 256;

    /// <summary>The largest segment written (a decoded article is well under this). Default 16 MiB.</summary>
    public int MaxSegmentBytes { get; set; } = 16 * 1024 * 1024;

    public void Validate()
    {
        if (string.IsNullOrWhiteSpace(Path))
            throw new ArgumentException("Cache:Path is empty: the disk cache is off, and no store should be opened.");
        if (MaxBytes < 1024 * 1024)
            throw new ArgumentException($"Cache:MaxBytes must be at least 1 MiB; {MaxBytes} is not.");
        if (ProbeShare is < 0 or > 1)
            throw new ArgumentException($"Cache:ProbeShare must be between 0 and 1; {ProbeShare} is not.");
        if (MaxQueuedWrites < 1)
            throw new ArgumentException($"Cache:MaxQueuedWrites must be at least 1; {MaxQueuedWrites} is not.");
    }
}

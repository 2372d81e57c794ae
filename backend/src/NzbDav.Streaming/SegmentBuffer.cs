using System.Buffers;
using System.Diagnostics;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming;

/// <summary>
/// One fetch attempt's decoded bytes: the NNTP client decodes straight into it (as an
/// <see cref="IYencBodyTarget"/>) while the reader copies out whatever has arrived. Storage is a row
/// of pooled 64 KiB chunks rented when the header tells the size, so memory tracks the part size
/// (a 700 KiB part is not rounded up to a 1 MiB array). Lifetime is reference counted: the fetch,
/// the segment's ticket and the reader each hold a reference; the last release returns the chunks.
/// </summary>
internal sealed class SegmentBuffer : IYencBodyTarget
{
    public const int ChunkShift = 16;
    public const int ChunkSize = 1 << ChunkShift;
    private const int ChunkMask = ChunkSize - 1;

    /// <summary>Larger parts are refused: yEnc posts use well under a few MiB per article.</summary>
    public const int MaxPartSize = 64 * 1024 * 1024;

    private const int New = 0;
    private const int Receiving = 1;
    private const int Completed = 2;
    private const int Failed = 3;

    private readonly ArrayPool<byte> _pool;
    private readonly ISegmentBufferObserver? _observer;
    private readonly StreamStatistics? _statistics;
    private byte[][]? _chunks;
    private YencHeader? _header;
    private int _size;
    private int _written;
    private int _state;
    private int _references = 1;

    public SegmentBuffer(ArrayPool<byte> pool, ISegmentBufferObserver? observer, StreamStatistics? statistics = null, string? provider = null)
    {
        _pool = pool;
        _observer = observer;
        _statistics = statistics;
        Provider = provider;
    }

    /// <summary>The provider whose answer this is (null for bytes that came from no provider).</summary>
    public string? Provider { get; }

    /// <summary>The part header; null until the decode began.</summary>
    public YencHeader? Header => Volatile.Read(ref _header);

    /// <summary>Decoded bytes readable now (published after they were written).</summary>
    public int Written => Volatile.Read(ref _written);

    /// <summary>The part's decoded size; 0 until the decode began.</summary>
    public int Size => _size;

    public bool HasBegun => Volatile.Read(ref _state) != New;

    public bool IsCompleted => Volatile.Read(ref _state) == Completed;

    public bool IsFailed => Volatile.Read(ref _state) == Failed;

    /// <summary>Stopwatch timestamp of the header's arrival (time to first byte).</summary>
    public long BegunAt { get; private set; }

    public void Begin(YencHeader header)
    {
        if (header.PartSize is <= 0 or > MaxPartSize)
        {
            throw new YencException($"Part size {header.PartSize} is outside 1..{MaxPartSize} bytes.");
        }
        if (_chunks is not null)
        {
            throw new InvalidOperationException("A segment buffer receives one article only.");
        }
        var size = (int)header.PartSize;
        var chunks = new byte[(size + ChunkMask) >> ChunkShift][];
        for (var i = 0; i < chunks.Length; i++)
        {
            chunks[i] = _pool.Rent(Math.Min(ChunkSize, size - (i << ChunkShift)));
        }
        BegunAt = Stopwatch.GetTimestamp();
        _size = size;
        _chunks = chunks;
        Volatile.Write(ref _header, header);
        Volatile.Write(ref _state, Receiving);
        _observer?.OnBegin(this);
    }

    public Span<byte> GetSpan()
    {
        var written = _written;
        var chunkStart = written & ~ChunkMask;
        var length = Math.Min(ChunkSize, _size - chunkStart) - (written - chunkStart);
        return _chunks![written >> ChunkShift].AsSpan(written & ChunkMask, length);
    }

    /// <summary>The same room as <see cref="GetSpan"/>, for a reader that fills it asynchronously or from a file.</summary>
    public Memory<byte> GetMemory()
    {
        var written = _written;
        var chunkStart = written & ~ChunkMask;
        var length = Math.Min(ChunkSize, _size - chunkStart) - (written - chunkStart);
        return _chunks![written >> ChunkShift].AsMemory(written & ChunkMask, length);
    }

    /// <summary>A completed part's bytes as its chunks, in order (for a gathered write); the caller holds a reference.</summary>
    public void AddChunksTo(List<ReadOnlyMemory<byte>> into)
    {
        var chunks = _chunks!;
        for (var i = 0; i < chunks.Length; i++)
        {
            into.Add(chunks[i].AsMemory(0, Math.Min(ChunkSize, _size - (i << ChunkShift))));
        }
    }

    public void Advance(int count)
    {
        // A full fence: the bytes are visible before the count, and the count before the observer looks for a waiter.
        var written = Interlocked.Add(ref _written, count);
        // Readers are told about the first bytes and then once per 64 KiB chunk filled (the rest
        // at completion): a reader woken per network read would copy and send a few KiB at a time,
        // and with several readers on one segment those wake-ups alone can fill the thread pool.
        if (written == count || (written >> ChunkShift) != ((written - count) >> ChunkShift))
        {
            _observer?.OnData(this);
        }
    }

    public void Complete(YencTrailer trailer)
    {
        if (_written != _size)
        {
            throw new YencException($"Part ended after {_written} of the {_size} bytes its header announced.");
        }
        // Counted once per part, and before a reader can see the part complete.
        _statistics?.CompletedFetch(_size);
        Volatile.Write(ref _state, Completed);
        _observer?.OnCompleted(this);
    }

    /// <summary>The fetch into this buffer ended without completing it.</summary>
    public void MarkFailed()
    {
        if (Interlocked.CompareExchange(ref _state, Failed, Receiving) == Receiving)
        {
            _observer?.OnFailed(this);
        }
    }

    /// <summary>Copies <paramref name="destination"/>.Length bytes starting at <paramref name="offset"/>; the caller checked <see cref="Written"/>.</summary>
    public void CopyTo(int offset, Span<byte> destination)
    {
        var chunks = _chunks!;
        while (!destination.IsEmpty)
        {
            var within = offset & ChunkMask;
            var count = Math.Min(destination.Length, ChunkSize - within);
            chunks[offset >> ChunkShift].AsSpan(within, count).CopyTo(destination);
            destination = destination[count..];
            offset += count;
        }
    }

    /// <summary>True when the first <paramref name="count"/> bytes equal <paramref name="other"/>'s (both hold that many).</summary>
    public bool StartsWithSameBytes(SegmentBuffer other, int count)
    {
        var mine = _chunks!;
        var theirs = other._chunks!;
        for (var offset = 0; offset < count; offset += ChunkSize)
        {
            var length = Math.Min(ChunkSize, count - offset);
            if (!mine[offset >> ChunkShift].AsSpan(0, length).SequenceEqual(theirs[offset >> ChunkShift].AsSpan(0, length)))
            {
                return false;
            }
        }
        return true;
    }

    public void AddReference() => Interlocked.Increment(ref _references);

    /// <summary>Takes a reference unless the buffer was already released for good.</summary>
    public bool TryAddReference()
    {
        var seen = Volatile.Read(ref _references);
        while (seen > 0)
        {
            var previous = Interlocked.CompareExchange(ref _references, seen + 1, seen);
            if (previous == seen)
            {
                return true;
            }
            seen = previous;
        }
        return false;
    }

    public void Release()
    {
        var left = Interlocked.Decrement(ref _references);
        if (left > 0)
        {
            return;
        }
        if (left < 0)
        {
            throw new InvalidOperationException("A segment buffer was released more often than referenced.");
        }
        var chunks = Interlocked.Exchange(ref _chunks, null);
        if (chunks is not null)
        {
            foreach (var chunk in chunks)
            {
                _pool.Return(chunk);
            }
        }
    }
}

using System.Buffers;

namespace NzbDav.Streaming;

/// <summary>
/// The pool segment buffers rent their 64 KiB chunks from. Every request up to a chunk gets a whole
/// chunk (one free list: a freed tail chunk serves the next full one), and free chunks are kept only
/// while the chunks rented plus those kept stay within <see cref="Capacity"/> (the streaming memory
/// budget, read each time so a changed setting applies at once) or within the most chunks rented at
/// once since the budget was set (streams' floors and fetches in flight exceed it in a burst). A
/// general pool would keep its free arrays whatever was in use: after ten streams started together
/// it held 128 MiB of free chunks beside the budget for the rest of the process's life, with more in
/// its smaller-size buckets.
/// </summary>
internal sealed class ChunkPool : ArrayPool<byte>
{
    public const int ChunkSize = SegmentBuffer.ChunkSize;

    private readonly Func<long> _capacity;
    private readonly Lock _gate = new();
    private byte[][] _free = new byte[64][];
    private int _freeCount;
    private long _rented;
    private long _allocated;
    private long _highWater;
    private long _capacitySeen;

    /// <param name="capacity">The bytes of chunks (rented and free) the pool may hold; read on every return.</param>
    public ChunkPool(Func<long> capacity)
    {
        ArgumentNullException.ThrowIfNull(capacity);
        _capacity = capacity;
        _capacitySeen = Capacity / ChunkSize;
    }

    /// <summary>The byte ceiling on chunks rented plus chunks kept free.</summary>
    public long Capacity => Math.Max(0, _capacity());

    /// <summary>Bytes of chunks rented now.</summary>
    public long RentedBytes => Interlocked.Read(ref _rented) * ChunkSize;

    /// <summary>Bytes of free chunks kept for reuse now.</summary>
    public long FreeBytes => (long)Volatile.Read(ref _freeCount) * ChunkSize;

    /// <summary>Chunks allocated because none was free (for the tests and the metrics).</summary>
    public long Allocated => Interlocked.Read(ref _allocated);

    /// <summary>
    /// Allocates free chunks until those kept free and those rented hold <paramref name="bytes"/>
    /// (at most <see cref="Capacity"/>); returns how many it allocated. A process that has not
    /// streamed yet otherwise allocates them while the first articles arrive, and there each
    /// pinned allocation waited on the collections the others set off: renting a segment's 11
    /// chunks took up to 50 ms, which the first reader waited on before its first byte.
    /// </summary>
    public int Warm(long bytes, CancellationToken cancellationToken)
    {
        var target = Math.Min(Math.Max(0, bytes), Capacity) / ChunkSize;
        var allocated = 0;
        while (!cancellationToken.IsCancellationRequested)
        {
            var chunk = GC.AllocateUninitializedArray<byte>(ChunkSize, pinned: true);
            lock (_gate)
            {
                if (_freeCount + Interlocked.Read(ref _rented) >= target)
                {
                    return allocated; // the new chunk goes to the collector unused
                }
                if (_freeCount == _free.Length)
                {
                    Array.Resize(ref _free, _free.Length * 2);
                }
                _free[_freeCount++] = chunk;
            }
            Interlocked.Increment(ref _allocated);
            allocated++;
        }
        return allocated;
    }

    public override byte[] Rent(int minimumLength)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(minimumLength);
        if (minimumLength > ChunkSize)
        {
            // Not a chunk (nothing in the streaming path asks for more): a plain array, never kept.
            return GC.AllocateUninitializedArray<byte>(minimumLength);
        }
        var rented = Interlocked.Increment(ref _rented);
        for (var high = Volatile.Read(ref _highWater); rented > high; high = Volatile.Read(ref _highWater))
        {
            if (Interlocked.CompareExchange(ref _highWater, rented, high) == high)
            {
                break;
            }
        }
        lock (_gate)
        {
            if (_freeCount > 0)
            {
                var chunk = _free[--_freeCount];
                _free[_freeCount] = null!;
                return chunk;
            }
        }
        Interlocked.Increment(ref _allocated);
        // On the pinned heap: a chunk lives as long as the pool keeps it, and in the young
        // generation each new one was copied twice on its way to the old one (a young generation
        // kept small for the host's sake made that a sixth of B1's throughput).
        return GC.AllocateUninitializedArray<byte>(ChunkSize, pinned: true);
    }

    public override void Return(byte[] array, bool clearArray = false)
    {
        ArgumentNullException.ThrowIfNull(array);
        if (array.Length != ChunkSize)
        {
            if (array.Length < ChunkSize)
            {
                throw new ArgumentException("The array was not rented from this pool.", nameof(array));
            }
            return;
        }
        var rented = Interlocked.Decrement(ref _rented);
        if (clearArray)
        {
            Array.Clear(array);
        }
        var capacity = Capacity / ChunkSize;
        lock (_gate)
        {
            if (capacity != _capacitySeen)
            {
                // The budget changed: what streams held under the old one no longer counts.
                _capacitySeen = capacity;
                Volatile.Write(ref _highWater, rented + 1);
            }
            // Kept: up to the budget, or up to the most the streams have held at once (their floors
            // and fetches in flight take them past the budget in a burst). Dropping chunks then
            // only made garbage that the pinned heap frees at its next full collection, a minute
            // away, while the next burst allocated new ones beside it: a 128 MiB budget grew that
            // heap by 60 MiB in 6 s. Kept, a chunk is simply rented again.
            var keep = Math.Max(capacity, Volatile.Read(ref _highWater)) - rented;
            if (_freeCount >= keep)
            {
                // Over the budget (it shrank): the chunk goes to the collector, and so do any
                // others kept beyond it.
                var target = (int)Math.Max(0, keep);
                for (var i = target; i < _freeCount; i++)
                {
                    _free[i] = null!;
                }
                _freeCount = Math.Min(_freeCount, target);
                return;
            }
            if (_freeCount == _free.Length)
            {
                Array.Resize(ref _free, _free.Length * 2);
            }
            _free[_freeCount++] = array;
        }
    }
}

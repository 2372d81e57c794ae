using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming.Tests;

/// <summary>The chunk pool keeps free chunks only within the memory budget.</summary>
public sealed class ChunkPoolTests
{
    private const int Chunk = ChunkPool.ChunkSize;

    [Fact]
    public void Every_request_up_to_a_chunk_gets_a_whole_chunk_and_a_freed_tail_chunk_serves_a_full_one()
    {
        var pool = new ChunkPool(() => 16L * Chunk);

        var tail = pool.Rent(1000);
        Assert.Equal(Chunk, tail.Length);
        pool.Return(tail);
        var full = pool.Rent(Chunk);

        Assert.Same(tail, full);
        Assert.Equal(1, pool.Allocated);
        Assert.Equal(Chunk, pool.RentedBytes);
        Assert.Equal(0, pool.FreeBytes);
    }

    [Fact]
    public void Warming_fills_the_pool_up_to_what_was_asked_within_the_capacity_and_renting_then_allocates_nothing()
    {
        var pool = new ChunkPool(() => 8L * Chunk);
        var held = pool.Rent(Chunk);

        // Asked for 6 chunks' worth with one rented: 5 more, kept free.
        Assert.Equal(5, pool.Warm(6L * Chunk, TestContext.Current.CancellationToken));
        Assert.Equal(5L * Chunk, pool.FreeBytes);
        Assert.Equal(6, pool.Allocated);
        Assert.Equal(0, pool.Warm(6L * Chunk, TestContext.Current.CancellationToken));

        var rented = Enumerable.Range(0, 5).Select(_ => pool.Rent(1000)).ToList();
        Assert.Equal(6, pool.Allocated);
        Assert.Equal(0, pool.FreeBytes);

        // Never past the capacity, whatever is asked; a cancelled warm-up allocates nothing.
        rented.ForEach(c => pool.Return(c));
        pool.Return(held);
        Assert.Equal(2, pool.Warm(100L * Chunk, TestContext.Current.CancellationToken));
        Assert.Equal(8L * Chunk, pool.FreeBytes);
        var fresh = new ChunkPool(() => 8L * Chunk);
        Assert.Equal(0, fresh.Warm(8L * Chunk, new CancellationToken(canceled: true)));
        Assert.Equal(0, fresh.Allocated);
    }

    [Fact]
    public void Chunks_kept_stay_within_the_capacity_or_the_most_rented_at_once_so_a_burst_over_it_allocates_nothing_twice()
    {
        var pool = new ChunkPool(() => 4L * Chunk);
        var chunks = Enumerable.Range(0, 6).Select(_ => pool.Rent(Chunk)).ToList();
        Assert.Equal(6L * Chunk, pool.RentedBytes);

        // Streams holding more than the capacity: what one returns another rents, from the pool.
        pool.Return(chunks[0]);
        Assert.Equal(Chunk, pool.FreeBytes);
        chunks[0] = pool.Rent(Chunk);
        Assert.Equal(6, pool.Allocated);

        foreach (var chunk in chunks)
        {
            pool.Return(chunk);
            Assert.True(pool.RentedBytes + pool.FreeBytes <= 6L * Chunk);
        }

        Assert.Equal(0, pool.RentedBytes);
        Assert.Equal(6L * Chunk, pool.FreeBytes);
        var again = Enumerable.Range(0, 7).Select(_ => pool.Rent(Chunk)).ToList();
        Assert.Equal(7, pool.Allocated);
        Assert.Equal(0, pool.FreeBytes);
        Assert.Equal(7, again.Distinct().Count());

        foreach (var chunk in again)
        {
            pool.Return(chunk);
        }
        Assert.Equal(7L * Chunk, pool.FreeBytes);
    }

    [Fact]
    public void A_smaller_budget_applies_at_the_next_return_and_drops_the_free_chunks_above_it()
    {
        long capacity = 8L * Chunk;
        var pool = new ChunkPool(() => Volatile.Read(ref capacity));
        var chunks = Enumerable.Range(0, 8).Select(_ => pool.Rent(Chunk)).ToList();
        foreach (var chunk in chunks.Take(7))
        {
            pool.Return(chunk);
        }
        Assert.Equal(7L * Chunk, pool.FreeBytes);

        Volatile.Write(ref capacity, 3L * Chunk);
        pool.Return(chunks[7]);

        Assert.Equal(0, pool.RentedBytes);
        Assert.Equal(3L * Chunk, pool.FreeBytes);
    }

    [Fact]
    public void A_request_larger_than_a_chunk_is_served_but_never_kept()
    {
        var pool = new ChunkPool(() => 16L * Chunk);

        var large = pool.Rent(Chunk + 1);
        pool.Return(large);

        Assert.Equal(Chunk + 1, large.Length);
        Assert.Equal(0, pool.RentedBytes);
        Assert.Equal(0, pool.FreeBytes);
        Assert.Throws<ArgumentException>(() => pool.Return(new byte[100]));
    }

    [Fact]
    public void A_segment_buffer_returns_every_chunk_it_rented_including_its_shorter_tail()
    {
        var pool = new ChunkPool(() => 64L * Chunk);
        var size = (3 * Chunk) + 123;
        var buffer = new SegmentBuffer(pool, null);

        buffer.Begin(new YencHeader("x", size, 128, 1, 1, 0, size));
        Assert.Equal(4L * Chunk, pool.RentedBytes);
        var written = 0;
        while (written < size)
        {
            var span = buffer.GetSpan();
            span.Fill(7);
            buffer.Advance(span.Length);
            written += span.Length;
        }
        Assert.Equal(size, written);
        buffer.Release();

        Assert.Equal(0, pool.RentedBytes);
        Assert.Equal(4L * Chunk, pool.FreeBytes);
    }
}

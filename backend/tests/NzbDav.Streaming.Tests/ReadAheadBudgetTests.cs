using Microsoft.Extensions.Time.Testing;
using NzbDav.Streaming.Tests.Support;
using static NzbDav.Streaming.Tests.Support.StreamHarness;

namespace NzbDav.Streaming.Tests;

/// <summary>Read-ahead sized to the reader and one host-wide budget for all streams.</summary>
public sealed class ReadAheadBudgetTests
{
    private const int SegmentSize = 32 * 1024;

    [Fact]
    public void A_claim_grows_into_what_is_free_and_a_newcomer_gets_its_floor_and_then_its_share()
    {
        var budget = new ReadAheadBudget(() => 100, new FakeTimeProvider());
        var greedy = budget.Claim(0, 100, 4);
        Assert.Equal(100, greedy);
        Assert.False(budget.IsOverShare(greedy));

        // Nothing is free: the newcomer starts on its floor, and the greedy one is now over its share.
        var newcomer = budget.Claim(0, 80, 4);
        Assert.Equal(4, newcomer);
        Assert.True(budget.IsOverShare(greedy));
        Assert.False(budget.IsOverShare(newcomer));

        // The greedy one shrinks to its share; the newcomer grows into the room.
        greedy = budget.Claim(greedy, 50, 4);
        newcomer = budget.Claim(newcomer, 80, 4);
        Assert.Equal(50, newcomer);
        Assert.Equal(100, budget.Claimed);
        Assert.False(budget.IsOverShare(greedy));

        Assert.Equal(0, budget.Claim(newcomer, 0, 0));
        Assert.Equal(0, budget.Claim(greedy, 0, 0));
        Assert.Equal(0, budget.Claimed);
        Assert.Equal(0, budget.Claimants);
    }

    [Fact]
    public void The_floor_is_granted_even_when_the_budget_is_spent()
    {
        var budget = new ReadAheadBudget(() => 10, new FakeTimeProvider());
        var greedy = budget.Claim(0, 10, 4);
        var others = Enumerable.Range(0, 4).Select(_ => budget.Claim(0, 8, 4)).ToList();
        Assert.All(others, claim => Assert.Equal(4, claim));
        Assert.Equal(10 + others.Sum(), budget.Claimed);
        Assert.True(budget.IsOverShare(greedy));
    }

    [Fact]
    public void A_claim_cut_short_puts_the_budget_under_pressure_for_a_second_of_its_clock()
    {
        var clock = new FakeTimeProvider();
        var budget = new ReadAheadBudget(() => 100, clock);
        var greedy = budget.Claim(0, 100, 4);
        Assert.False(budget.IsOverShare(greedy)); // alone, and nobody was refused

        budget.Claim(0, 80, 4);
        clock.Advance(TimeSpan.FromMilliseconds(999));
        Assert.True(budget.IsOverShare(greedy));

        // The pressure ends a second after the refusal, however long the greedy claim stays over its share.
        clock.Advance(TimeSpan.FromMilliseconds(1));
        Assert.False(budget.IsOverShare(greedy));
    }

    [Fact]
    public async Task A_paced_reader_keeps_a_read_ahead_fitted_to_its_rate()
    {
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(2));
        var file = server.Store.AddGeneratedFile("paced.bin", 400L * SegmentSize, SegmentSize);
        // About 1.6 MB/s over ~100 ms of lead: a handful of segments, where the ceiling is 64.
        var options = new StreamingOptions
        {
            StartReadAheadBytes = 4L * SegmentSize,
            MaxReadAheadBytes = 64L * SegmentSize,
            ReadAheadLead = TimeSpan.FromMilliseconds(100),
            MinimumStragglerDelay = TimeSpan.FromMinutes(5),
        };
        await using var harness = Create(options, Provider(server));

        await using var stream = await harness.OpenAsync(file);
        var most = 0L;
        for (var segment = 0; segment < 60; segment++)
        {
            await StreamAssert.ReadsExactlyAsync(stream, file, SegmentSize, Token);
            if (segment >= 20)
            {
                most = Math.Max(most, stream.Statistics.BytesFetched - stream.Statistics.BytesRead);
            }
            await Task.Delay(20, Token);
        }

        Assert.InRange(most, 0, 16L * SegmentSize);
        Assert.InRange(harness.Factory.Budget.Claimed, 1, 16L * SegmentSize);
        await stream.DisposeAsync();
        Assert.Equal(0, harness.Factory.Budget.Claimed);
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task Streams_together_stay_within_the_memory_budget()
    {
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(5));
        var files = Enumerable.Range(0, 3).Select(i => server.Store.AddGeneratedFile($"budget-{i}.bin", 300L * SegmentSize, SegmentSize)).ToList();
        // A read-ahead budget of 24 segments for three greedy readers whose own ceiling is 64 each.
        var options = new StreamingOptions
        {
            MaxReadAheadBytes = 64L * SegmentSize,
            SegmentCacheBytes = 0,
            MemoryBudgetBytes = 24L * SegmentSize,
            MinimumStragglerDelay = TimeSpan.FromMinutes(5),
        };
        await using var harness = Create(options, Provider(server, maxConnections: 12));
        var limit = harness.Factory.Budget.Limit;
        var most = 0L;

        await Task.WhenAll(files.Select(file => Task.Run(async () =>
        {
            await using var stream = await harness.OpenAsync(file);
            var buffer = new byte[64 * 1024];
            long position = 0;
            int read;
            while ((read = await stream.ReadAsync(buffer, Token)) > 0)
            {
                StreamAssert.AssertBytes(file, position, buffer.AsSpan(0, read));
                position += read;
                var claimed = harness.Factory.Budget.Claimed;
                InterlockedMax(ref most, claimed);
            }
            Assert.Equal(file.Size, position);
        }, Token)));

        // Over the limit by at most the floors of streams that arrived while it was spent.
        Assert.InRange(most, 1, limit + (3L * 4 * SegmentSize));
        Assert.Equal(0, harness.Factory.Budget.Claimed);
        await harness.AssertAllReturnedAsync();
    }

    private static void InterlockedMax(ref long target, long value)
    {
        var seen = Volatile.Read(ref target);
        while (value > seen)
        {
            var previous = Interlocked.CompareExchange(ref target, value, seen);
            if (previous == seen)
                return;
            seen = previous;
        }
    }
}

using NzbDav.Usenet.Limiting;

namespace NzbDav.Usenet.Tests.Limiting;

public sealed class LimiterCapacityTests
{
    [Fact]
    public async Task Hammering_from_many_tasks_never_exceeds_the_budget_or_a_maximum()
    {
        var token = TestContext.Current.CancellationToken;
        var limiter = new GlobalOperationLimiter(new LimiterOptions
        {
            TotalConnections = 12, QueueGuarantee = 2, HealthCheckGuarantee = 1, HealthCheckMaximum = 3,
        });
        var current = new int[3];
        var peak = new int[3];
        int total = 0, peakTotal = 0, completed = 0;

        async Task Worker(int seed)
        {
            var random = new Random(seed);
            for (var i = 0; i < 200; i++)
            {
                var kind = (OperationKind)random.Next(3);
                using var permit = await limiter.AcquireAsync(kind, token);
                Track(ref peak[(int)kind], Interlocked.Increment(ref current[(int)kind]));
                Track(ref peakTotal, Interlocked.Increment(ref total));
                await Task.Yield();
                Interlocked.Decrement(ref total);
                Interlocked.Decrement(ref current[(int)kind]);
                Interlocked.Increment(ref completed);
            }
        }

        await Task.WhenAll(Enumerable.Range(0, 128).Select(seed => Task.Run(() => Worker(seed), token)));

        Assert.Equal(128 * 200, completed);
        Assert.InRange(peakTotal, 1, 12);
        Assert.InRange(peak[(int)OperationKind.HealthCheck], 1, 3);
        var stats = limiter.GetStats();
        Assert.Equal(0, stats.InUse);
        Assert.Equal(0, stats.StreamingWaiting + stats.QueueWaiting + stats.HealthCheckWaiting);
        Assert.True(limiter.TakeNow(OperationKind.Streaming).IsHeld);

        static void Track(ref int peakValue, int value)
        {
            int seen;
            while (value > (seen = Volatile.Read(ref peakValue)) && Interlocked.CompareExchange(ref peakValue, value, seen) != seen)
            {
            }
        }
    }

    [Fact]
    public void Each_release_wakes_exactly_one_waiter()
    {
        var limiter = LimiterTestHelpers.Create(total: 3);
        var held = new Queue<LimiterPermit>(Enumerable.Range(0, 3).Select(_ => limiter.TakeNow(OperationKind.Streaming)));
        var waiters = Enumerable.Range(0, 50).Select(_ => limiter.Wait(OperationKind.Streaming)).ToList();

        for (var released = 1; released <= waiters.Count; released++)
        {
            held.Dequeue().Dispose();
            Assert.Equal(released, waiters.Count(w => w.IsCompleted));
            held.Enqueue(waiters[released - 1].Granted());
        }
    }

    [Fact]
    public void Growing_the_budget_wakes_exactly_as_many_waiters_as_it_admits()
    {
        var limiter = LimiterTestHelpers.Create(total: 2);
        var held = new[] { limiter.TakeNow(OperationKind.Queue), limiter.TakeNow(OperationKind.Queue) };
        var waiters = Enumerable.Range(0, 6).Select(i => limiter.Wait(i % 2 == 0 ? OperationKind.Streaming : OperationKind.Queue)).ToList();

        limiter.Reconfigure(LimiterOptions.CreateDefault(5));

        Assert.Equal(3, waiters.Count(w => w.IsCompleted));
        var stats = limiter.GetStats();
        Assert.Equal(5, stats.InUse);
        Assert.Equal(3, stats.StreamingWaiting + stats.QueueWaiting);
        Assert.True(waiters[0].IsCompleted && waiters[2].IsCompleted && waiters[4].IsCompleted); // streaming first
        Assert.All(held, p => Assert.True(p.IsHeld));
    }

    [Fact]
    public void Shrinking_revokes_nothing_and_delays_new_permits()
    {
        var limiter = LimiterTestHelpers.Create(total: 5);
        var held = Enumerable.Range(0, 5).Select(_ => limiter.TakeNow(OperationKind.Streaming)).ToList();

        limiter.Reconfigure(LimiterOptions.CreateDefault(2));
        Assert.All(held, p => Assert.True(p.IsHeld));
        Assert.Equal(5, limiter.GetStats().InUse);
        var waiter = limiter.Wait(OperationKind.Streaming);

        for (var i = 0; i < 3; i++)
        {
            held[i].Dispose();
        }

        Assert.False(waiter.IsCompleted); // 2 still held, the new budget is 2
        held[3].Dispose();
        Assert.True(waiter.IsCompletedSuccessfully);
        Assert.Equal(2, limiter.GetStats().InUse);
    }

    [Fact]
    public void Disposing_a_permit_twice_or_through_a_stale_copy_releases_it_once()
    {
        var limiter = LimiterTestHelpers.Create(total: 1);
        var first = limiter.TakeNow(OperationKind.Streaming);
        var copy = first;
        first.Dispose();
        first.Dispose();
        Assert.False(copy.IsHeld);

        var second = limiter.TakeNow(OperationKind.Streaming); // reuses the same backing cell
        copy.Dispose();
        Assert.True(second.IsHeld);
        Assert.Equal(1, limiter.GetStats().InUse);
        default(LimiterPermit).Dispose();
    }

    [Fact]
    public void The_uncontended_path_allocates_nothing()
    {
        var limiter = LimiterTestHelpers.Create(total: 4);
        var token = TestContext.Current.CancellationToken;
        for (var i = 0; i < 100; i++)
        {
            limiter.AcquireAsync(OperationKind.Streaming, token).Now().Dispose();
        }

        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 1000; i++)
        {
            limiter.AcquireAsync((OperationKind)(i % 3), token).Now().Dispose();
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }
}

using NzbDav.Usenet.Limiting;

namespace NzbDav.Usenet.Tests.Limiting;

public sealed class LimiterSchedulingTests
{
    [Fact]
    public void Waiters_of_one_kind_are_served_in_arrival_order()
    {
        var limiter = LimiterTestHelpers.Create(total: 1);
        var held = limiter.TakeNow(OperationKind.Streaming);
        var waiters = Enumerable.Range(0, 10).Select(_ => limiter.Wait(OperationKind.Streaming)).ToList();

        for (var i = 0; i < waiters.Count; i++)
        {
            held.Dispose();
            Assert.True(waiters[i].IsCompletedSuccessfully, $"waiter {i} should be next");
            Assert.All(waiters.Skip(i + 1), w => Assert.False(w.IsCompleted));
            held = waiters[i].Granted();
        }

        held.Dispose();
        Assert.Equal(0, limiter.GetStats().InUse);
    }

    [Fact]
    public void A_kind_below_its_guarantee_goes_first_then_streaming_wins_among_borrowers()
    {
        var limiter = LimiterTestHelpers.Create(total: 20, queue: 2, health: 1);
        var streaming = Enumerable.Range(0, 20).Select(_ => limiter.TakeNow(OperationKind.Streaming)).ToList();
        var health = limiter.Wait(OperationKind.HealthCheck);
        var queue = limiter.Wait(OperationKind.Queue);
        var stream = limiter.Wait(OperationKind.Streaming);

        streaming[0].Dispose();
        Assert.True(queue.IsCompletedSuccessfully); // queue (0 of 2) outranks health (0 of 1)
        Assert.False(health.IsCompleted);
        streaming[1].Dispose();
        Assert.True(health.IsCompletedSuccessfully);
        Assert.False(stream.IsCompleted);
        streaming[2].Dispose();
        Assert.True(stream.IsCompletedSuccessfully);

        // Everyone at or above guarantee: a freed permit goes to streaming before queue and health.
        var moreHealth = limiter.Wait(OperationKind.HealthCheck);
        var moreQueue = limiter.Wait(OperationKind.Queue);
        var moreStream = limiter.Wait(OperationKind.Streaming);
        queue.Granted().Dispose(); // queue drops to 0 of 2: it is below guarantee again
        Assert.True(moreQueue.IsCompletedSuccessfully);
        streaming[3].Dispose();
        Assert.True(moreStream.IsCompletedSuccessfully);
        Assert.False(moreHealth.IsCompleted);
    }

    [Fact]
    public void Streaming_keeps_its_share_while_queue_and_health_are_saturated()
    {
        // The seed's setup: 20 connections, with ingestion and health checks wanting all of them.
        var options = LimiterOptions.CreateDefault(20);
        var limiter = new GlobalOperationLimiter(options);
        var token = TestContext.Current.CancellationToken;
        var held = new Queue<LimiterPermit>();
        var pending = new List<Task<LimiterPermit>>();
        OperationKind[] kinds = [OperationKind.Queue, OperationKind.HealthCheck, OperationKind.Streaming];
        foreach (var kind in kinds)
        {
            for (var i = 0; i < 40; i++)
            {
                pending.Add(limiter.AcquireAsync(kind, token).AsTask());
            }
        }

        var minStreaming = int.MaxValue;
        for (var step = 0; step < 2000; step++)
        {
            for (var i = pending.Count - 1; i >= 0; i--)
            {
                if (pending[i].IsCompletedSuccessfully)
                {
                    var permit = pending[i].Granted();
                    held.Enqueue(permit);
                    pending.RemoveAt(i);
                    pending.Add(limiter.AcquireAsync(permit.Kind, token).AsTask()); // stay saturated
                }
            }

            var stats = limiter.GetStats();
            Assert.Equal(20, stats.InUse);
            Assert.True(stats.QueueWaiting > 0 && stats.HealthCheckWaiting > 0 && stats.StreamingWaiting > 0);
            if (step >= 40)
            {
                minStreaming = Math.Min(minStreaming, stats.StreamingInUse);
            }

            held.Dequeue().Dispose();
        }

        Assert.Equal(options.StreamingGuarantee, minStreaming);
        Assert.Equal(17, minStreaming);
    }

    [Fact]
    public void Health_checks_are_served_while_streaming_keeps_coming_even_without_a_guarantee()
    {
        var limiter = LimiterTestHelpers.Create(total: 2); // too small for any health guarantee
        var token = TestContext.Current.CancellationToken;
        var held = new Queue<LimiterPermit>([limiter.TakeNow(OperationKind.Streaming), limiter.TakeNow(OperationKind.Streaming)]);
        var health = limiter.Wait(OperationKind.HealthCheck);
        var streams = new Queue<Task<LimiterPermit>>();

        var releases = 0;
        while (!health.IsCompleted && releases < 1000)
        {
            streams.Enqueue(limiter.AcquireAsync(OperationKind.Streaming, token).AsTask());
            streams.Enqueue(limiter.AcquireAsync(OperationKind.Streaming, token).AsTask());
            held.Dequeue().Dispose();
            releases++;
            while (streams.Count > 0 && streams.Peek().IsCompletedSuccessfully)
            {
                held.Enqueue(streams.Dequeue().Granted());
            }
        }

        Assert.True(health.IsCompletedSuccessfully);
        Assert.Equal(limiter.Options.StarvationLimit + 1, releases);
    }

    [Fact]
    public void A_kind_is_never_given_more_than_its_maximum()
    {
        var limiter = new GlobalOperationLimiter(new LimiterOptions { TotalConnections = 10, QueueGuarantee = 1, QueueMaximum = 3 });
        var queue = Enumerable.Range(0, 3).Select(_ => limiter.TakeNow(OperationKind.Queue)).ToList();
        var fourth = limiter.Wait(OperationKind.Queue);
        var stream = limiter.TakeNow(OperationKind.Streaming); // capacity is free for others
        queue[0].Dispose();
        Assert.True(fourth.IsCompletedSuccessfully);
        stream.Dispose();
        Assert.Equal(3, limiter.GetStats().QueueInUse);
    }
}

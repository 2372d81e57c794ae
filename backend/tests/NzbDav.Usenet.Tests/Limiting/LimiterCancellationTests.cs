using NzbDav.Usenet.Limiting;

namespace NzbDav.Usenet.Tests.Limiting;

public sealed class LimiterCancellationTests
{
    [Fact]
    public async Task A_cancelled_waiter_leaves_the_queue_and_loses_no_wake_up()
    {
        var limiter = LimiterTestHelpers.Create(total: 1);
        var held = limiter.TakeNow(OperationKind.Streaming);
        using var cts = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        var cancelled = limiter.Wait(OperationKind.Streaming, cts.Token);
        var next = limiter.Wait(OperationKind.Streaming);

        await cts.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => cancelled);
        Assert.Equal(1, limiter.GetStats().StreamingWaiting);

        held.Dispose();
        Assert.True(next.IsCompletedSuccessfully);
        Assert.Equal(1, limiter.GetStats().InUse);
    }

    [Fact]
    public async Task An_already_cancelled_token_fails_without_queueing()
    {
        var limiter = LimiterTestHelpers.Create(total: 1);
        using var cts = new CancellationTokenSource();
        await cts.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => limiter.AcquireAsync(OperationKind.Queue, cts.Token).AsTask());
        Assert.Equal(0, limiter.GetStats().InUse);
    }

    [Fact]
    public async Task Cancellation_racing_a_grant_never_loses_capacity()
    {
        var limiter = LimiterTestHelpers.Create(total: 1);
        var outcomes = new int[2]; // [granted, cancelled]
        var jitter = new Random(11);
        // At least 2000 rounds, and on until each side has won some: on a loaded machine one thread
        // can win hundreds of rounds in a row. The jitter varies which side reaches the gate first.
        for (var i = 0; i < 2000 || (Math.Min(outcomes[0], outcomes[1]) < 10 && i < 200_000); i++)
        {
            var releaseSpin = jitter.Next(64);
            var cancelSpin = jitter.Next(64);
            var held = limiter.TakeNow(OperationKind.HealthCheck);
            using var cts = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
            var waiter = limiter.AcquireAsync(OperationKind.Streaming, cts.Token).AsTask();
            var bystander = limiter.AcquireAsync(OperationKind.Streaming, TestContext.Current.CancellationToken).AsTask();

            using var start = new Barrier(2);
            var release = Task.Run(() => { start.SignalAndWait(); Thread.SpinWait(releaseSpin); held.Dispose(); }, TestContext.Current.CancellationToken);
            var cancel = Task.Run(() => { start.SignalAndWait(); Thread.SpinWait(cancelSpin); cts.Cancel(); }, TestContext.Current.CancellationToken);
            await Task.WhenAll(release, cancel);

            try
            {
                (await waiter).Dispose(); // only if granted before the cancel was seen
                outcomes[0]++;
            }
            catch (OperationCanceledException)
            {
                outcomes[1]++;
            }

            // Whatever happened, the single permit must have reached the bystander by now: grants
            // and cancellations both complete under the limiter's gate, before Cancel or Dispose return.
            Assert.True(bystander.IsCompletedSuccessfully, $"iteration {i}: the permit never reached the bystander");
            (await bystander).Dispose();
            Assert.Equal(0, limiter.GetStats().InUse);
        }

        // Each side must have won some rounds, or the loop never raced a grant against a cancellation.
        Assert.True(outcomes[0] > 0 && outcomes[1] > 0, $"granted {outcomes[0]} times, cancelled {outcomes[1]} times");
    }

    [Fact]
    public async Task HasWaiters_follows_the_queue_of_its_kind()
    {
        var limiter = LimiterTestHelpers.Create(total: 1);
        var held = limiter.TakeNow(OperationKind.Streaming);
        Assert.False(limiter.HasWaiters(OperationKind.Streaming));

        using var cts = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        var cancelled = limiter.Wait(OperationKind.Streaming, cts.Token);
        Assert.True(limiter.HasWaiters(OperationKind.Streaming));
        Assert.False(limiter.HasWaiters(OperationKind.Queue));
        await cts.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => cancelled);
        Assert.False(limiter.HasWaiters(OperationKind.Streaming));

        var granted = limiter.Wait(OperationKind.Streaming);
        Assert.True(limiter.HasWaiters(OperationKind.Streaming));
        held.Dispose();
        (await granted).Dispose();
        Assert.False(limiter.HasWaiters(OperationKind.Streaming));
    }
}

using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;
using static NzbDav.Testing.Waiting;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Providers;

public sealed class CircuitBreakerTests
{
    [Fact]
    public async Task A_failing_provider_is_skipped_then_given_one_trial_after_the_cooldown()
    {
        await using var kit = new ClientTestKit(attempts: 2, threshold: 3);
        kit.Post("a@x", "fast", "slow");
        kit["fast"].RefuseConnections = true;

        await Body(kit, "a@x"); // fast fails (1), slow serves
        await Body(kit, "a@x"); // fast fails (2), slow serves
        await Body(kit, "a@x"); // fast fails once more (3): open
        Assert.Equal(3, kit["fast"].ConnectAttempts);
        Assert.Equal(CircuitState.Open, kit.Status("fast").Circuit);
        Assert.Equal(kit.Time.GetUtcNow() + TimeSpan.FromSeconds(30), kit.Status("fast").RetryAt);

        await Body(kit, "a@x"); // skipped without a connect attempt
        kit.Time.Advance(TimeSpan.FromSeconds(29));
        await Body(kit, "a@x");
        Assert.Equal(3, kit["fast"].ConnectAttempts);

        kit.Time.Advance(TimeSpan.FromSeconds(1));
        await Body(kit, "a@x"); // half-open trial fails: open again, no second attempt on fast
        Assert.Equal(4, kit["fast"].ConnectAttempts);
        Assert.Equal(CircuitState.Open, kit.Status("fast").Circuit);

        kit["fast"].RefuseConnections = false;
        kit.Time.Advance(TimeSpan.FromSeconds(30));
        var slowBefore = kit["slow"].ConnectAttempts;
        await Body(kit, "a@x"); // the trial succeeds and closes the breaker
        Assert.Equal(CircuitState.Closed, kit.Status("fast").Circuit);
        Assert.Null(kit.Status("fast").RetryAt);
        Assert.Equal(slowBefore, kit["slow"].ConnectAttempts);
    }

    [Fact]
    public async Task Only_one_trial_is_let_through_while_half_open()
    {
        await using var kit = new ClientTestKit(attempts: 1, threshold: 1);
        kit.Post("b@x", "fast", "slow");
        kit["fast"].RefuseConnections = true;
        await Body(kit, "b@x");
        Assert.Equal(CircuitState.Open, kit.Status("fast").Circuit);

        kit["fast"].RefuseConnections = false;
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        kit["fast"].Gate = gate; // the trial's connect hangs
        kit.Time.Advance(TimeSpan.FromSeconds(30));
        var trial = Body(kit, "b@x");
        await WaitUntilAsync(() => kit.Status("fast").Circuit == CircuitState.HalfOpen, Token);

        var attemptsBefore = kit["fast"].ConnectAttempts;
        await Body(kit, "b@x"); // not the trial: goes straight to slow
        Assert.Equal(attemptsBefore, kit["fast"].ConnectAttempts);

        kit["fast"].Gate = null;
        gate.SetResult();
        await trial;
        Assert.Equal(CircuitState.Closed, kit.Status("fast").Circuit);
    }

    [Fact]
    public async Task When_every_provider_is_cooling_off_the_error_says_so()
    {
        await using var kit = new ClientTestKit(attempts: 1, threshold: 1);
        foreach (var name in new[] { "fast", "slow", "backup" })
        {
            kit[name].RefuseConnections = true;
        }

        await Assert.ThrowsAsync<NoProviderAvailableException>(() => Body(kit, "c@x"));
        var error = await Assert.ThrowsAsync<NoProviderAvailableException>(() => Body(kit, "c@x"));
        Assert.Equal(["fast", "slow", "backup"], error.Failures.Select(f => f.ProviderName));
        Assert.All(error.Failures, f => Assert.StartsWith("skipped", f.Reason));
        await Assert.ThrowsAsync<NoProviderAvailableException>(() => kit.Client.AcquireAsync(OperationKind.Streaming, Token).AsTask());
        Assert.Equal(0, kit.Limiter.GetStats().InUse); // the permit was given back
    }

    private static Task<YencHeader> Body(ClientTestKit kit, string messageId) =>
        kit.Client.BodyAsync(messageId, () => new RecordingTarget(), OperationKind.Streaming, Token);
}

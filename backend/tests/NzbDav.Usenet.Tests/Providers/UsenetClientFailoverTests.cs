using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Providers;

public sealed class UsenetClientFailoverTests
{
    [Fact]
    public async Task Providers_are_tried_by_priority_with_primaries_before_backups()
    {
        await using var kit = new ClientTestKit();
        Assert.Equal(["fast", "slow", "backup"], kit.Client.GetProviderStatus().Select(s => s.Name));
        kit.Post("a@x", "slow", "backup", "fast");

        var target = new RecordingTarget();
        var header = await kit.Client.BodyAsync("a@x", () => target, OperationKind.Streaming, Token);

        Assert.Equal(ClientTestKit.Article("a@x"), target.Data);
        Assert.True(target.Completed);
        Assert.Equal(target.Data.Length, header.PartSize);
        Assert.Equal((1, 0, 0), (kit["fast"].ConnectAttempts, kit["slow"].ConnectAttempts, kit["backup"].ConnectAttempts));
    }

    [Fact]
    public async Task A_430_moves_on_to_the_next_provider_and_backups_come_last()
    {
        await using var kit = new ClientTestKit();
        kit.Post("b@x", "backup");

        var target = new RecordingTarget();
        await kit.Client.BodyAsync("b@x", () => target, OperationKind.Queue, Token);

        Assert.Equal(ClientTestKit.Article("b@x"), target.Data);
        Assert.Equal((1, 1, 1), (kit["fast"].ConnectAttempts, kit["slow"].ConnectAttempts, kit["backup"].ConnectAttempts));
        Assert.All(kit.Client.GetProviderStatus(), s => Assert.Equal(CircuitState.Closed, s.Circuit));
    }

    [Fact]
    public async Task An_article_missing_everywhere_names_the_message_id_and_every_provider()
    {
        await using var kit = new ClientTestKit(threshold: 1);
        var error = await Assert.ThrowsAsync<ArticleMissingException>(
            () => kit.Client.BodyAsync("gone@x", () => new RecordingTarget(), OperationKind.Streaming, Token));

        Assert.Equal("gone@x", error.MessageId);
        Assert.Equal(["fast", "slow", "backup"], error.ProvidersTried);
        Assert.Contains("<gone@x>", error.Message);
        Assert.All(kit.Client.GetProviderStatus(), s => Assert.Equal(CircuitState.Closed, s.Circuit)); // 430s never trip
    }

    [Fact]
    public async Task A_connection_broken_mid_body_is_retried_on_a_fresh_session_with_a_fresh_target()
    {
        await using var kit = new ClientTestKit();
        kit.Post("c@x", "fast");
        kit["fast"].BreakNextBodies(1);
        var targets = new List<RecordingTarget>();

        await kit.Client.BodyAsync("c@x", () => { var t = new RecordingTarget(); targets.Add(t); return t; }, OperationKind.Streaming, Token);

        Assert.Equal(2, targets.Count);
        Assert.False(targets[0].Completed);
        Assert.Equal(ClientTestKit.Article("c@x"), targets[1].Data);
        Assert.Equal(2, kit["fast"].ConnectAttempts);
        Assert.Equal(1, kit["fast"].OpenNow); // the broken session was closed
    }

    [Fact]
    public async Task A_corrupt_copy_moves_on_without_counting_against_the_provider()
    {
        await using var kit = new ClientTestKit(threshold: 1);
        kit.Post("d@x", "fast", "slow");
        kit["fast"].Corrupt["d@x"] = true;

        var target = new RecordingTarget();
        await kit.Client.BodyAsync("d@x", () => target = new RecordingTarget(), OperationKind.Streaming, Token);

        Assert.True(target.Completed);
        Assert.Equal(1, kit["slow"].ConnectAttempts);
        Assert.Equal(CircuitState.Closed, kit.Status("fast").Circuit);
        Assert.Equal(1, kit["fast"].OpenNow); // read to its end: the session stays pooled
    }

    [Fact]
    public async Task Stat_is_true_anywhere_false_when_all_answer_430_and_unknown_when_one_fails()
    {
        await using var kit = new ClientTestKit(threshold: 10);
        kit.Post("g@x", "backup");
        Assert.True(await kit.Client.StatAsync("g@x", OperationKind.HealthCheck, Token));
        Assert.False(await kit.Client.StatAsync("none@x", OperationKind.HealthCheck, Token));

        kit["slow"].RefuseConnections = true;
        foreach (var session in kit.Factory.Opened.Where(c => c.ProviderName == "slow"))
        {
            session.Break(); // the pooled one is found dead and cannot be replaced
        }

        var error = await Assert.ThrowsAsync<ArticleFetchFailedException>(
            () => kit.Client.StatAsync("none@x", OperationKind.HealthCheck, Token));
        Assert.Equal(["fast", "backup"], error.MissingOn);
        Assert.Equal(2, error.Failures.Count(f => f.ProviderName == "slow")); // MaxAttemptsPerProvider
    }

    [Fact]
    public async Task Operations_wait_for_limiter_permits_before_taking_connections()
    {
        await using var kit = new ClientTestKit(maxConnections: 5, limits: new LimiterOptions { TotalConnections = 2 });
        kit.Post("h@x", "fast");
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        kit["fast"].Gate = gate;

        var bodies = Enumerable.Range(0, 5)
            .Select(_ => kit.Client.BodyAsync("h@x", () => new RecordingTarget(), OperationKind.Streaming, Token))
            .ToList();

        using (var deadline = CancellationTokenSource.CreateLinkedTokenSource(Token))
        {
            deadline.CancelAfter(TimeSpan.FromSeconds(10));
            while (kit.Limiter.GetStats() is not { InUse: 2, StreamingWaiting: 3 })
            {
                await Task.Delay(1, deadline.Token);
            }
        }

        kit["fast"].Gate = null;
        gate.SetResult();
        await Task.WhenAll(bodies);
        Assert.InRange(kit["fast"].PeakOpen, 1, 2);
        Assert.Equal(0, kit.Limiter.GetStats().InUse);
    }

    [Fact]
    public async Task Bad_message_ids_are_rejected_before_anything_is_sent()
    {
        await using var kit = new ClientTestKit();
        await Assert.ThrowsAsync<ArgumentException>(() => kit.Client.StatAsync(" ", OperationKind.HealthCheck, Token));
        await Assert.ThrowsAsync<ArgumentException>(() => kit.Client.StatAsync("a@x\r\nQUIT", OperationKind.HealthCheck, Token));
        Assert.Equal(0, kit.Limiter.GetStats().InUse);
        Assert.Equal(0, kit["fast"].ConnectAttempts);
    }
}

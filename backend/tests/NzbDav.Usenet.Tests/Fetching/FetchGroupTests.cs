using Microsoft.Extensions.Logging;
using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Tests.Providers;
using NzbDav.Usenet.Yenc;
using static NzbDav.Testing.Waiting;
using static NzbDav.Usenet.Tests.Fetching.FetchTestKit;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Fetching;

/// <summary>The fetch engine over fake providers "fast", "slow" (primaries) and "backup".</summary>
public sealed class FetchGroupTests
{
    [Fact]
    public async Task A_430_on_the_groups_provider_is_fetched_on_a_lease_that_avoids_it()
    {
        await using var kit = new ClientTestKit();
        kit.Post("a@x", "fast", "slow", "backup");
        kit.Post("only-backup@x", "backup");
        var group = kit.Client.OpenGroup(Queue(cap: 1));
        await using (group)
        {
            var a = Submit(group, "a@x", 0);
            var rare = Submit(group, "only-backup@x", 1);
            group.Wake();

            Assert.Equal(ClientTestKit.Article("a@x"), await a.Data);
            Assert.Equal(ClientTestKit.Article("only-backup@x"), await rare.Data);
        }

        // fast first (430), then the primaries in order, then the backup: each 430 rules one out.
        Assert.Equal(["a@x", "only-backup@x"], kit["fast"].BodyLog);
        Assert.Equal(["only-backup@x"], kit["slow"].BodyLog);
        Assert.Equal(["only-backup@x"], kit["backup"].BodyLog);
        Assert.Equal(0, group.Statistics.LeasesHeld);
        Assert.Equal(0, kit.Limiter.GetStats().InUse);
    }

    [Fact]
    public async Task Requests_go_out_lowest_order_first_within_the_in_flight_limit()
    {
        await using var kit = new ClientTestKit();
        foreach (var id in new[] { "r1@x", "r3@x", "r5@x" })
        {
            kit.Post(id, "fast");
        }

        await using var group = kit.Client.OpenGroup(Queue(cap: 1) with { MaxInFlight = 1 });
        var requests = new[] { Submit(group, "r5@x", 5), Submit(group, "r1@x", 1), Submit(group, "r3@x", 3) };
        group.Wake();
        await Task.WhenAll(requests.Select(r => r.Data));

        Assert.Equal(["r1@x", "r3@x", "r5@x"], kit["fast"].BodyLog);
    }

    [Fact]
    public async Task Missing_everywhere_is_answered_as_missing_naming_every_provider()
    {
        await using var kit = new ClientTestKit();
        await using var group = kit.Client.OpenGroup(Queue(cap: 2));
        var gone = Submit(group, "gone@x", 0);
        group.Wake();

        var error = await Assert.ThrowsAsync<ArticleMissingException>(() => gone.Data);
        Assert.Equal(["fast", "slow", "backup"], error.ProvidersTried);
    }

    [Fact]
    public async Task A_corrupt_copy_is_fetched_from_another_provider()
    {
        await using var kit = new ClientTestKit();
        kit.Post("c@x", "fast", "slow");
        kit["fast"].Corrupt["c@x"] = true;
        await using var group = kit.Client.OpenGroup(Queue(cap: 1));
        var request = Submit(group, "c@x", 0);
        group.Wake();

        Assert.Equal(ClientTestKit.Article("c@x"), await request.Data);
        Assert.Equal(1, group.Statistics.Retries);
        Assert.Equal(["c@x"], kit["slow"].BodyLog);
    }

    [Fact]
    public async Task Stat_requests_answer_found_and_missing_through_the_same_engine()
    {
        await using var kit = new ClientTestKit();
        kit.Post("s@x", "backup");
        await using var group = kit.Client.OpenGroup(new FetchGroupOptions { Kind = OperationKind.HealthCheck, IdleTimeout = TimeSpan.Zero });
        var found = new StatRequest("s@x");
        var missing = new StatRequest("none@x");
        group.Submit(found);
        group.Submit(missing);
        group.Wake();

        Assert.True(await found.Exists);
        Assert.False(await missing.Exists);
    }

    [Fact]
    public async Task Disposing_the_group_cancels_what_was_not_answered_and_returns_every_lease()
    {
        await using var kit = new ClientTestKit();
        kit.Post("held@x", "fast");
        kit.Post("queued@x", "fast");
        await OpenIdleSessionAsync(kit); // the gate below holds bodies, not the connect
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        kit["fast"].Gate = gate;
        var group = kit.Client.OpenGroup(Queue(cap: 1) with { MaxInFlight = 1 });
        var held = Submit(group, "held@x", 0);
        var queued = Submit(group, "queued@x", 1);
        group.Wake();
        await WaitUntilAsync(() => kit["fast"].BodyRequests == 1, Token); // the first is out, waiting at the gate

        await group.DisposeAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => held.Data);
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => queued.Data);
        Assert.Equal(["held@x"], kit["fast"].BodyLog);
        Assert.Equal(0, kit.Limiter.GetStats().InUse);
    }

    [Fact]
    public async Task A_provider_removed_while_a_group_runs_finishes_its_answer_and_the_rest_goes_elsewhere()
    {
        await using var kit = new ClientTestKit();
        kit.Post("first@x", "fast", "slow");
        kit.Post("second@x", "fast", "slow");
        await OpenIdleSessionAsync(kit);
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        kit["fast"].Gate = gate;
        await using var group = kit.Client.OpenGroup(Queue(cap: 1) with { MaxInFlight = 1 });
        var first = Submit(group, "first@x", 0);
        var second = Submit(group, "second@x", 1);
        group.Wake();
        await WaitUntilAsync(() => kit["fast"].BodyRequests == 1, Token);

        kit.Client.Reconfigure(new UsenetOptions { Providers = [.. kit.Options.Providers.Where(p => p.Name != "fast")] });
        gate.SetResult();

        Assert.Equal(ClientTestKit.Article("first@x"), await first.Data); // the answer in flight completes
        Assert.Equal(ClientTestKit.Article("second@x"), await second.Data);
        Assert.Equal(["first@x"], kit["fast"].BodyLog);
        Assert.Equal(["second@x"], kit["slow"].BodyLog);
        await WaitUntilAsync(() => kit["fast"].OpenNow == 0, Token); // its session closed when the lease came back
    }

    [Fact]
    public async Task Streams_sharing_a_full_pool_wait_for_the_extra_lease_they_want_instead_of_asking_for_it_again_and_again()
    {
        // Two streams share six permits (three each when both wait); their heads are blocked, so each
        // wants one lease beyond its share. That lease waits in the limiter; neither group may take
        // its own waiting for contention, nor give the extra lease back only to ask for it again.
        await using var kit = new ClientTestKit(maxConnections: 3, limits: new LimiterOptions { TotalConnections = 6, QueueGuarantee = 0, HealthCheckGuarantee = 0 });
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        kit["fast"].Gate = gate;
        kit["slow"].Gate = gate;
        var ids = Enumerable.Range(0, 80).Select(i => $"s{i}@x").ToArray();
        foreach (var id in ids)
        {
            kit.Post(id, "fast", "slow");
        }
        var options = new FetchGroupOptions { Kind = OperationKind.Streaming, ConnectionCap = 6, DemandFactor = 2, IdleTimeout = TimeSpan.FromMinutes(1), ShareWhenContended = true };
        await using var first = kit.Client.OpenGroup(options);
        await using var second = kit.Client.OpenGroup(options);
        var requests = new List<BodyRequest>();
        for (var i = 0; i < 20; i++)
        {
            requests.Add(Submit(first, ids[i], i));
            requests.Add(Submit(second, ids[40 + i], i));
        }
        // Each reader is blocked on its first segment.
        first.SetHead(requests[0]);
        second.SetHead(requests[1]);
        first.Wake();
        second.Wake();

        await WaitUntilAsync(() => kit.Limiter.GetStats() is { InUse: 6, StreamingWaiting: > 0 }, Token);
        // More reads arrive while the pool is full: each wakes both groups' loops again.
        for (var i = 20; i < 40; i++)
        {
            requests.Add(Submit(first, ids[i], i));
            requests.Add(Submit(second, ids[40 + i], i));
            first.Wake();
            second.Wake();
            await Task.Delay(1, Token);
        }
        var withdrawn = kit.Limiter.WithdrawnWaits;
        gate.SetResult();
        foreach (var request in requests)
        {
            Assert.Equal(ClientTestKit.Article(request.MessageId), await request.Data);
        }

        // Before the fix each group gave up and took up its extra lease's wait on every pass,
        // tens of thousands of times a second for as long as the pool stayed full.
        Assert.True(withdrawn <= 10, $"{withdrawn} permit waits were withdrawn while the pool was full");
    }

    [Fact]
    public async Task A_late_head_is_raced_on_a_backup_session_when_the_groups_clock_passes_the_race_delay()
    {
        await using var kit = new ClientTestKit();
        kit.Post("late@x", "fast", "backup");
        await OpenIdleSessionAsync(kit); // the gate below holds bodies (and new sessions to fast), not this one
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        kit["fast"].Gate = gate;
        var log = new RecordingLogger();
        var group = kit.Client.OpenGroup(new FetchGroupOptions { Kind = OperationKind.Streaming, ConnectionCap = 1, DemandFactor = 1, IdleTimeout = TimeSpan.FromMinutes(1), RaceStragglers = true }, log);
        await using (group)
        {
            var late = Submit(group, "late@x", 0);
            group.SetHead(late);
            group.Wake();
            await WaitUntilAsync(() => kit["fast"].BodyRequests == 1, Token); // out on fast, where nothing comes

            // With no fetch timed yet, a reader's request is raced 600 ms after its attempt started.
            kit.Time.Advance(TimeSpan.FromMilliseconds(599));
            Assert.Equal(0, group.Statistics.StragglerRaces);
            Assert.Equal(0, kit["backup"].BodyRequests);

            // Far past it in one step: the race runs at the group's time, whatever the system clock says.
            kit.Time.Advance(TimeSpan.FromSeconds(10) - TimeSpan.FromMilliseconds(599));
            Assert.Equal(ClientTestKit.Article("late@x"), await late.Data);
            Assert.Equal(1, group.Statistics.StragglerRaces);
            Assert.Equal(["late@x"], kit["backup"].BodyLog);
            // Measured on the group's clock: 10 s to the tick; on the system clock it would be about 0.6 s.
            Assert.Contains(log.Messages, m => m.Contains("<late@x> is late (10000 ms)", StringComparison.Ordinal));
            gate.SetResult();
        }
    }

    private static FetchGroupOptions Queue(int cap) => new()
    {
        Kind = OperationKind.Queue,
        ConnectionCap = cap,
        DemandFactor = 1,
        IdleTimeout = TimeSpan.Zero,
    };

    /// <summary>Keeps every message logged to it (the fetch engine's logs say what it decided, and when).</summary>
    private sealed class RecordingLogger : ILogger
    {
        private readonly System.Collections.Concurrent.ConcurrentQueue<string> _messages = new();

        public IReadOnlyCollection<string> Messages => _messages;

        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            _messages.Enqueue(formatter(state, exception));
    }

    private sealed class StatRequest(string messageId) : ArticleRequest(messageId, 0, ArticleCommand.Stat)
    {
        private readonly TaskCompletionSource<bool> _exists = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task<bool> Exists => _exists.Task.WaitAsync(TimeSpan.FromSeconds(10), Token);

        protected internal override bool IsWanted => !_exists.Task.IsCompleted;

        protected internal override void OnFound(YencHeader? header) => _exists.TrySetResult(true);

        protected internal override void OnMissing(ArticleMissingException error) => _exists.TrySetResult(false);

        protected internal override void OnFailed(Exception error) => _exists.TrySetException(error);
    }
}

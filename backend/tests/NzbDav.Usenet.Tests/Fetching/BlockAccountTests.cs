using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Tests.Providers;
using static NzbDav.Testing.Waiting;
using static NzbDav.Usenet.Tests.Fetching.FetchTestKit;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Fetching;

/// <summary>
/// Block accounts over fake providers "fast", "slow" (primaries), "backup" and "block": asked only
/// for what every other provider answered 430 for, or for what a reader has waited on past the
/// setting; never for straggler races, never for read-ahead others can serve.
/// </summary>
public sealed class BlockAccountTests
{
    [Fact]
    public async Task A_block_account_fetches_only_the_articles_every_other_provider_answered_430_for()
    {
        await using var kit = new ClientTestKit(block: true);
        for (var i = 0; i < 12; i++)
        {
            kit.Post($"common{i}@x", "fast", "slow", "backup", "block");
        }
        kit.Post("backup-has-it@x", "backup", "block");
        kit.Post("rare@x", "block");
        var group = kit.Client.OpenGroup(new FetchGroupOptions { Kind = OperationKind.Streaming, ConnectionCap = 2, DemandFactor = 2, IdleTimeout = TimeSpan.Zero, RaceStragglers = true });
        await using (group)
        {
            var requests = Enumerable.Range(0, 12).Select(i => Submit(group, $"common{i}@x", i)).ToList();
            var fromBackup = Submit(group, "backup-has-it@x", 20);
            var rare = Submit(group, "rare@x", 21);
            var gone = Submit(group, "gone@x", 22);
            group.Wake();

            foreach (var request in requests)
            {
                Assert.Equal(ClientTestKit.Article(request.MessageId), await request.Data);
            }
            Assert.Equal(ClientTestKit.Article("backup-has-it@x"), await fromBackup.Data);
            Assert.Equal(ClientTestKit.Article("rare@x"), await rare.Data);
            var error = await Assert.ThrowsAsync<ArticleMissingException>(() => gone.Data);
            // The block account is asked last, after every other provider answered 430.
            Assert.Equal(["fast", "slow", "backup", "block"], error.ProvidersTried);
        }

        Assert.Equal(["gone@x", "rare@x"], kit["block"].BodyLog.Order(StringComparer.Ordinal));
        Assert.Equal(2, group.Statistics.BlockAllowed);
        await WaitUntilAsync(() => kit.Status("block").Pool.InUse == 0, Token);
        Assert.Equal(0, kit.Limiter.GetStats().InUse);
    }

    [Fact]
    public async Task A_late_head_is_raced_on_the_backup_never_on_the_block_account()
    {
        await using var kit = new ClientTestKit(block: true);
        kit.Post("late@x", "fast", "backup", "block");
        await OpenIdleSessionAsync(kit);
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        kit["fast"].Gate = gate;
        var group = kit.Client.OpenGroup(Stream());
        await using (group)
        {
            var late = Submit(group, "late@x", 0);
            group.SetHead(late);
            group.Wake();
            await WaitUntilAsync(() => kit["fast"].BodyRequests == 1, Token);

            kit.Time.Advance(TimeSpan.FromSeconds(30));
            Assert.Equal(ClientTestKit.Article("late@x"), await late.Data);
            Assert.Equal(1, group.Statistics.StragglerRaces);
            Assert.Equal(["late@x"], kit["backup"].BodyLog);
            gate.SetResult();
        }

        Assert.Equal(0, kit["block"].BodyRequests);
        Assert.Equal(0, kit["block"].ConnectAttempts);
    }

    [Fact]
    public async Task With_the_setting_a_reader_that_waited_that_long_is_served_from_the_block_account_and_read_ahead_never_is()
    {
        await using var kit = new ClientTestKit(block: true, blockAfterMs: 1500);
        kit.Post("waited@x", "fast", "block");
        kit.Post("ahead@x", "fast", "block");
        await OpenIdleSessionAsync(kit);
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        kit["fast"].Gate = gate;
        var group = kit.Client.OpenGroup(Stream());
        await using (group)
        {
            var waited = Submit(group, "waited@x", 0);
            var ahead = Submit(group, "ahead@x", 1);
            group.SetHead(waited);
            group.Wake();
            await WaitUntilAsync(() => kit["fast"].BodyRequests == 2, Token);

            // The race (600 ms) goes to the backup, which lacks it; the block account is not asked yet.
            kit.Time.Advance(TimeSpan.FromMilliseconds(1499));
            await WaitUntilAsync(() => kit["backup"].BodyRequests >= 1, Token);
            Assert.Equal(0, kit["block"].BodyRequests);

            kit.Time.Advance(TimeSpan.FromMilliseconds(1));
            Assert.Equal(ClientTestKit.Article("waited@x"), await waited.Data);
            Assert.Equal(["waited@x"], kit["block"].BodyLog);
            Assert.Equal(1, group.Statistics.BlockAllowed);

            // Read-ahead nobody waits on stays on the primary however long it takes.
            kit.Time.Advance(TimeSpan.FromSeconds(60));
            gate.SetResult();
            Assert.Equal(ClientTestKit.Article("ahead@x"), await ahead.Data);
        }

        Assert.Equal(["waited@x"], kit["block"].BodyLog);
    }

    [Fact]
    public async Task Block_accounts_alone_serve_everything()
    {
        UsenetProviderOptions[] providers = [Provider("blk", 2, ProviderRole.Block)];
        var factory = new FakeConnectionFactory();
        var time = new Microsoft.Extensions.Time.Testing.FakeTimeProvider();
        await using var client = new UsenetClient(new UsenetOptions { Providers = providers }, factory, new GlobalOperationLimiter(LimiterOptions.CreateDefault(providers)),
            time, Microsoft.Extensions.Logging.Abstractions.NullLogger<UsenetClient>.Instance);
        factory["blk"].Articles["a@x"] = ClientTestKit.Article("a@x");

        var target = new RecordingTarget();
        await client.BodyAsync("a@x", () => target, OperationKind.Streaming, Token);

        Assert.Equal(ClientTestKit.Article("a@x"), target.Data);
        Assert.Equal(2, LimiterOptions.BudgetOf(providers));
    }

    [Fact]
    public void A_block_account_adds_nothing_to_the_connection_budget_and_the_wait_setting_is_bounded()
    {
        Assert.Equal(10, LimiterOptions.BudgetOf([Provider("p", 10), Provider("b", 50, ProviderRole.Block)]));
        Assert.Equal(4, LimiterOptions.BudgetOf([Provider("bk", 4, ProviderRole.BackupOnly), Provider("b", 50, ProviderRole.Block)]));
        var error = Assert.Throws<ArgumentException>(() => new UsenetOptions { Providers = [Provider("p")], BlockAccountAfterMs = 50 }.Validate());
        Assert.Contains("BlockAccountAfterMs", error.Message, StringComparison.Ordinal);
    }

    private static FetchGroupOptions Stream() =>
        new() { Kind = OperationKind.Streaming, ConnectionCap = 1, DemandFactor = 1, IdleTimeout = TimeSpan.FromMinutes(1), RaceStragglers = true };
}

using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Tests.Limiting;

public sealed class LimiterDefaultsTests
{
    [Fact]
    public void Defaults_always_leave_streaming_at_least_half_and_the_rest_of_the_budget()
    {
        for (var n = 1; n <= 200; n++)
        {
            var options = LimiterOptions.CreateDefault(n);
            options.Validate();
            Assert.Equal(n, options.TotalConnections);
            Assert.Equal(n - options.QueueGuarantee - options.HealthCheckGuarantee, options.StreamingGuarantee);
            Assert.True(options.StreamingGuarantee * 2 > n, $"N={n}: streaming {options.StreamingGuarantee} is not a majority");
            Assert.InRange(options.QueueGuarantee, 0, Math.Max(1, n / 10));
            Assert.InRange(options.HealthCheckGuarantee, 0, Math.Max(1, n / 20));
        }
    }

    [Fact]
    public void Small_budgets_drop_health_then_queue_guarantees()
    {
        Assert.Equal((0, 0), Shares(1));
        Assert.Equal((0, 0), Shares(2));
        Assert.Equal((1, 0), Shares(3));
        Assert.Equal((1, 0), Shares(4));
        Assert.Equal((1, 1), Shares(5));
        Assert.Equal((2, 1), Shares(20));
        Assert.Equal((20, 10), Shares(200));

        static (int Queue, int Health) Shares(int n)
        {
            var o = LimiterOptions.CreateDefault(n);
            return (o.QueueGuarantee, o.HealthCheckGuarantee);
        }
    }

    [Fact]
    public void For_every_budget_streaming_gets_its_share_once_queue_and_health_saturate()
    {
        var token = TestContext.Current.CancellationToken;
        for (var n = 1; n <= 200; n++)
        {
            var options = LimiterOptions.CreateDefault(n);
            var limiter = new GlobalOperationLimiter(options);

            // Queue got there first and borrowed everything; health and streaming pile up behind it.
            var queueHeld = Enumerable.Range(0, n).Select(_ => limiter.TakeNow(OperationKind.Queue)).ToList();
            var waiting = new List<Task<LimiterPermit>>();
            for (var i = 0; i < 2 * n; i++)
            {
                waiting.Add(limiter.AcquireAsync(OperationKind.Queue, token).AsTask());
                waiting.Add(limiter.AcquireAsync(OperationKind.HealthCheck, token).AsTask());
                waiting.Add(limiter.AcquireAsync(OperationKind.Streaming, token).AsTask());
            }

            foreach (var permit in queueHeld)
            {
                permit.Dispose();
            }

            var stats = limiter.GetStats();
            Assert.Equal(n, stats.InUse);
            Assert.True(stats.StreamingInUse >= n - options.QueueGuarantee - options.HealthCheckGuarantee,
                $"N={n}: streaming holds {stats.StreamingInUse}, guarantee {options.StreamingGuarantee}");
            Assert.True(stats.StreamingInUse * 2 >= n, $"N={n}: streaming holds {stats.StreamingInUse}");
            Assert.Equal(options.QueueGuarantee, stats.QueueInUse);
            Assert.Equal(options.HealthCheckGuarantee, stats.HealthCheckInUse);
            Assert.Equal(n, waiting.Count(t => t.IsCompletedSuccessfully));
        }
    }

    [Fact]
    public void Budget_counts_primaries_only_unless_there_are_none()
    {
        UsenetProviderOptions[] mixed =
        [
            new() { Name = "a", Host = "a", MaxConnections = 20 },
            new() { Name = "b", Host = "b", MaxConnections = 30 },
            new() { Name = "backup", Host = "c", MaxConnections = 8, Role = ProviderRole.BackupOnly },
        ];
        Assert.Equal(50, LimiterOptions.BudgetOf(mixed));
        Assert.Equal(8, LimiterOptions.BudgetOf(mixed[2..]));
        Assert.Equal(50, LimiterOptions.CreateDefault(mixed).TotalConnections);
    }

    [Fact]
    public void The_seed_configuration_that_left_streaming_one_connection_is_rejected()
    {
        // The seed defaulted queue and health to the whole budget: streaming = max(1, N - N - N) = 1.
        var seed = new LimiterOptions { TotalConnections = 20, QueueGuarantee = 20, HealthCheckGuarantee = 20 };
        var error = Assert.Throws<ArgumentException>(seed.Validate);
        Assert.Contains(nameof(LimiterOptions.QueueGuarantee), error.Message);
        Assert.Throws<ArgumentException>(() => new GlobalOperationLimiter(seed));
    }

    [Fact]
    public void Invalid_settings_name_themselves()
    {
        Assert.Contains("TotalConnections", Assert.Throws<ArgumentException>(() => new LimiterOptions { TotalConnections = 0 }.Validate()).Message);
        Assert.Contains("QueueMaximum", Assert.Throws<ArgumentException>(() =>
            new LimiterOptions { TotalConnections = 10, QueueGuarantee = 2, QueueMaximum = 1 }.Validate()).Message);
        Assert.Contains("StarvationLimit", Assert.Throws<ArgumentException>(() =>
            new LimiterOptions { TotalConnections = 10, StarvationLimit = 0 }.Validate()).Message);
        Assert.Throws<ArgumentOutOfRangeException>(() => LimiterOptions.CreateDefault(0));
    }
}

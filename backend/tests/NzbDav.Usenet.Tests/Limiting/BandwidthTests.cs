using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Time.Testing;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Tests.Limiting;

/// <summary>The bandwidth cap's schedule, its token bucket on a test clock, and who goes first when it binds.</summary>
public sealed class BandwidthTests
{
    private const long MiB = 1024 * 1024;

    [Fact]
    public void A_schedule_gives_each_time_of_day_its_rate_windows_may_cross_midnight()
    {
        var schedule = BandwidthSchedule.Parse("01:00-07:00=unlimited, 22:30-00:30=5 MiB/s", 20 * MiB);

        Assert.Null(schedule.RateAt(new TimeOnly(1, 0)));
        Assert.Null(schedule.RateAt(new TimeOnly(6, 59)));
        Assert.Equal(20 * MiB, schedule.RateAt(new TimeOnly(7, 0)));
        Assert.Equal(5 * MiB, schedule.RateAt(new TimeOnly(23, 59)));
        Assert.Equal(5 * MiB, schedule.RateAt(new TimeOnly(0, 29)));
        Assert.Equal(20 * MiB, schedule.RateAt(new TimeOnly(0, 30)));
        Assert.Equal(TimeSpan.FromMinutes(30), schedule.UntilNextChange(new TimeOnly(0, 0)));
        Assert.Equal(TimeSpan.FromHours(15.5), schedule.UntilNextChange(new TimeOnly(7, 0)));
        Assert.Null(BandwidthSchedule.Parse(null, 20 * MiB).UntilNextChange(new TimeOnly(7, 0)));
    }

    [Theory]
    [InlineData("01:00-07:00=unlimited, 06:00-08:00=10 MiB", "overlap")]
    [InlineData("23:00-02:00=1 MiB, 01:00-03:00=2 MiB", "overlap")]
    [InlineData("01:00=unlimited", "not a window")]
    [InlineData("1am-7am=unlimited", "not a time of day")]
    [InlineData("25:00-07:00=unlimited", "not a time of day")]
    [InlineData("01:00-07:00=fast", "not a rate")]
    [InlineData("01:00-01:00=unlimited", "same time")]
    [InlineData("01:00-07:00=1 KiB", "below")]
    public void A_schedule_that_cannot_be_read_is_refused_naming_the_setting_and_the_entry(string text, string why)
    {
        var error = Assert.Throws<ArgumentException>(() => BandwidthSchedule.Parse(text, null));
        Assert.StartsWith(BandwidthOptions.ScheduleKey + ":", error.Message, StringComparison.Ordinal);
        Assert.Contains(why, error.Message, StringComparison.Ordinal);
        // The options refuse it too, as the settings do before anything is stored.
        Assert.Throws<ArgumentException>(() => new UsenetOptions { Bandwidth = new BandwidthOptions { Schedule = text } }.Validate());
    }

    [Fact]
    public void A_cap_of_zero_or_below_the_floor_is_refused_naming_the_setting()
    {
        var error = Assert.Throws<ArgumentException>(() => new UsenetOptions { Bandwidth = new BandwidthOptions { MaxBytesPerSecond = 0 } }.Validate());
        Assert.Contains(BandwidthOptions.CapKey, error.Message, StringComparison.Ordinal);
        var provider = Assert.Throws<ArgumentException>(() => new UsenetOptions
        {
            Providers = [new UsenetProviderOptions { Name = "p", Host = "news.example", MaxBytesPerSecond = -5 }],
        }.Validate());
        Assert.Contains("MaxBytesPerSecond", provider.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_bucket_lets_reads_through_at_its_rate_on_the_test_clock()
    {
        var time = new FakeTimeProvider();
        using var gate = new BandwidthGate(time);
        gate.SetRate(MiB); // 16 reads of 64 KiB a second, a quarter second of burst
        var flow = new object();
        var reads = 0;
        var reader = Task.Run(async () =>
        {
            while (true)
            {
                if (!await gate.WaitAsync(OperationKind.Streaming, flow, TestContext.Current.CancellationToken))
                {
                    return; // the cap was lifted
                }
                gate.Settle(BandwidthGate.Chunk);
                Interlocked.Increment(ref reads);
            }
        }, TestContext.Current.CancellationToken);

        await NzbDav.Testing.Waiting.WaitUntilAsync(() => gate.Waiting == 1, TestContext.Current.CancellationToken);
        var burst = Volatile.Read(ref reads);
        Assert.InRange(burst, 4, 5);
        for (var step = 0; step < 100; step++)
        {
            time.Advance(TimeSpan.FromMilliseconds(100));
            var due = burst + ((step + 1) * 16 / 10);
            await NzbDav.Testing.Waiting.WaitUntilAsync(() => Volatile.Read(ref reads) >= due && gate.Waiting == 1, TestContext.Current.CancellationToken);
        }
        // Ten seconds at 1 MiB/s: 160 reads of 64 KiB, give or take one.
        Assert.InRange(Volatile.Read(ref reads) - burst, 159, 161);

        gate.SetRate(null);
        await reader;
    }

    [Fact]
    public async Task When_the_cap_binds_playback_goes_first_ingestion_creeps_on_and_flows_take_turns()
    {
        var time = new FakeTimeProvider();
        using var gate = new BandwidthGate(time);
        gate.SetRate(MiB);
        var ct = TestContext.Current.CancellationToken;
        // Take the burst and owe nothing: the bucket holds 0 bytes, so everything below queues and each
        // sixteenth of a second (64 KiB at 1 MiB/s) lets exactly one read through.
        Assert.True(await gate.WaitAsync(OperationKind.Streaming, new object(), ct));
        gate.Settle(BandwidthGate.Chunk + (256 * 1024) - BandwidthGate.Chunk);

        var order = new List<string>();
        var waits = new List<Task>();
        void Queue(string name, OperationKind kind, object flow)
        {
            var pending = gate.WaitAsync(kind, flow, ct);
            waits.Add(Record(pending));

            async Task Record(ValueTask<bool> turn)
            {
                await turn;
                lock (order)
                {
                    order.Add(name);
                }
                gate.Settle(BandwidthGate.Chunk);
            }
        }

        object greedy = new(), player = new(), ingestion = new();
        for (var i = 0; i < 40; i++)
        {
            Queue("ingest", OperationKind.Queue, ingestion);
        }
        for (var i = 0; i < 40; i++)
        {
            Queue("greedy", OperationKind.Streaming, greedy);
        }
        for (var i = 0; i < 3; i++)
        {
            Queue("player", OperationKind.Streaming, player);
        }

        // One grant at a time: each advance lets exactly one read through.
        for (var granted = 1; granted <= 40; granted++)
        {
            time.Advance(TimeSpan.FromSeconds(1.0 / 16));
            var expected = granted;
            await NzbDav.Testing.Waiting.WaitUntilAsync(() => { lock (order) { return order.Count >= expected; } }, ct);
        }

        string[] first;
        lock (order)
        {
            first = [.. order.Take(40)];
        }
        // The player's three reads come in the first six turns, alternating with the greedy flow, though it queued last.
        Assert.Equal(3, first.Take(6).Count(n => n == "player"));
        // Ingestion waits while playback queues, but gets one turn after being passed over 32 times.
        Assert.Equal(1, first.Count(n => n == "ingest"));
        Assert.Equal("ingest", first[BandwidthGate.StarvationLimit]);

        gate.SetRate(null);
        await Task.WhenAll(waits);
    }

    [Fact]
    public async Task The_schedule_switches_the_cap_at_its_edges_in_local_time_and_follows_a_clock_that_jumps()
    {
        var time = new FakeTimeProvider(new DateTimeOffset(2026, 11, 29, 23, 58, 0, TimeSpan.Zero));
        time.SetLocalTimeZone(TimeZoneInfo.CreateCustomTimeZone("UTC+1", TimeSpan.FromHours(1), "UTC+1", "UTC+1"));
        using var limiter = new BandwidthLimiter(time, NullLogger<BandwidthLimiter>.Instance);
        limiter.Apply(new UsenetOptions
        {
            Providers = [new UsenetProviderOptions { Name = "news", Host = "news.example", MaxBytesPerSecond = 8 * MiB }],
            Bandwidth = new BandwidthOptions { MaxBytesPerSecond = 20 * MiB, Schedule = "01:00-07:00=unlimited" },
        });

        // 00:58 local: the cap holds; 01:00 local: full speed.
        Assert.Equal(20 * MiB, limiter.GlobalRate);
        Assert.Equal(8 * MiB, limiter.ProviderRate("NEWS"));
        time.Advance(TimeSpan.FromMinutes(2));
        Assert.Null(limiter.GlobalRate);

        // The clock jumps to 12:00 local: within a minute the cap is back.
        time.SetUtcNow(new DateTimeOffset(2026, 11, 30, 11, 0, 0, TimeSpan.Zero));
        time.Advance(TimeSpan.FromMinutes(1));
        Assert.Equal(20 * MiB, limiter.GlobalRate);

        // Changed at runtime: the provider's cap goes, the global one changes at once.
        limiter.Apply(new UsenetOptions
        {
            Providers = [new UsenetProviderOptions { Name = "news", Host = "news.example" }],
            Bandwidth = new BandwidthOptions { MaxBytesPerSecond = 50 * MiB },
        });
        Assert.Equal(50 * MiB, limiter.GlobalRate);
        Assert.Null(limiter.ProviderRate("news"));
    }
}

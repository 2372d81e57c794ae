using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Microsoft.Extensions.Time.Testing;
using NzbDav.MockNntp;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Server.Traffic;
using NzbDav.Testing;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Tests.Traffic;

/// <summary>Provider allowances: their periods on a test clock (days, a month's reset day, a clock that jumps), and a provider at its quota passed over under a real player.</summary>
public sealed class ProviderQuotasTests(ITestOutputHelper output)
{
    private static ProviderQuotas Quotas(FakeTimeProvider time, long? daily = null, long? monthly = null, int resetDay = 1, long? window = null, int windowHours = 24) =>
        new(new Fixed(new UsenetOptions
        {
            Providers =
            [
                new UsenetProviderOptions
                {
                    Name = "block", Host = "news.example", DailyQuotaBytes = daily, MonthlyQuotaBytes = monthly, QuotaResetDay = resetDay,
                    WindowQuotaBytes = window, QuotaWindowHours = windowHours,
                },
            ],
        }), time);

    [Fact]
    public void A_daily_allowance_is_spent_within_the_day_and_back_at_midnight_UTC()
    {
        var time = new FakeTimeProvider(new DateTimeOffset(2026, 11, 28, 23, 50, 0, TimeSpan.Zero));
        var quotas = Quotas(time, daily: 1_000_000_000);
        Assert.Null(quotas.Exhausted("block"));
        quotas.Saved("block", new DateTime(2026, 11, 28, 0, 0, 0, DateTimeKind.Utc), 1_000_000_000, new DateTime(2026, 11, 1, 0, 0, 0, DateTimeKind.Utc), 5_000_000_000, 0);
        Assert.Equal("daily quota of 1.0 GB reached (1.0 GB today); it resets at 00:00 UTC", quotas.Exhausted("block"));
        Assert.Null(quotas.Exhausted("other provider"));

        time.Advance(TimeSpan.FromMinutes(10));
        Assert.Null(quotas.Exhausted("block"));
        // The month goes on: what it spent stays.
        Assert.Equal((0L, 5_000_000_000L), quotas.UsageOf("block"));
    }

    [Fact]
    public void A_monthly_allowance_runs_from_its_reset_day_and_a_clock_that_jumps_back_counts_the_period_it_lands_in()
    {
        Assert.Equal(new DateTime(2026, 10, 15, 0, 0, 0, DateTimeKind.Utc), ProviderQuotas.MonthStart(new DateTime(2026, 11, 14, 23, 59, 0, DateTimeKind.Utc), 15));
        Assert.Equal(new DateTime(2026, 11, 15, 0, 0, 0, DateTimeKind.Utc), ProviderQuotas.MonthStart(new DateTime(2026, 11, 15, 0, 0, 0, DateTimeKind.Utc), 15));
        Assert.Equal(new DateTime(2026, 12, 15, 0, 0, 0, DateTimeKind.Utc), ProviderQuotas.MonthStart(new DateTime(2027, 1, 3, 0, 0, 0, DateTimeKind.Utc), 15));

        var time = new FakeTimeProvider(new DateTimeOffset(2026, 11, 14, 22, 0, 0, TimeSpan.Zero));
        var quotas = Quotas(time, monthly: 500_000_000_000, resetDay: 15);
        quotas.Saved("block", new DateTime(2026, 11, 14, 0, 0, 0, DateTimeKind.Utc), 1, new DateTime(2026, 10, 15, 0, 0, 0, DateTimeKind.Utc), 500_000_000_000, 0);
        Assert.Equal("monthly quota of 500 GB reached (500 GB since Oct 15); it resets on Nov 15 at 00:00 UTC", quotas.Exhausted("block"));

        // Past the reset: a new month, nothing spent in it yet.
        time.Advance(TimeSpan.FromHours(3));
        Assert.Null(quotas.Exhausted("block"));

        // The clock is set back into the old period: what was saved for it counts again.
        time.AdjustTime(new DateTimeOffset(2026, 11, 14, 23, 0, 0, TimeSpan.Zero));
        Assert.NotNull(quotas.Exhausted("block"));
    }

    [Fact]
    public void A_rolling_allowance_counts_the_last_hours_whole()
    {
        Assert.Equal(new DateTime(2026, 11, 27, 15, 0, 0, DateTimeKind.Utc), ProviderQuotas.WindowStart(new DateTime(2026, 11, 28, 14, 35, 0, DateTimeKind.Utc), 24));
        Assert.Equal(new DateTime(2026, 11, 28, 14, 0, 0, DateTimeKind.Utc), ProviderQuotas.WindowStart(new DateTime(2026, 11, 28, 14, 35, 0, DateTimeKind.Utc), 1));

        var time = new FakeTimeProvider(new DateTimeOffset(2026, 11, 28, 14, 35, 0, TimeSpan.Zero));
        var quotas = Quotas(time, window: 10_000_000_000, windowHours: 6);
        var day = new DateTime(2026, 11, 28, 0, 0, 0, DateTimeKind.Utc);
        quotas.Saved("block", day, 0, new DateTime(2026, 11, 1, 0, 0, 0, DateTimeKind.Utc), 0, ProviderQuotas.WindowStart(time.GetUtcNow().UtcDateTime, 6), 9_999_999_999, 0);
        Assert.Null(quotas.Exhausted("block"));
        quotas.Saved("block", day, 0, new DateTime(2026, 11, 1, 0, 0, 0, DateTimeKind.Utc), 0, ProviderQuotas.WindowStart(time.GetUtcNow().UtcDateTime, 6), 10_000_000_000, 0);
        Assert.Equal("quota of 10.0 GB in 6 h reached (10.0 GB since Nov 28 09:00 UTC); it frees up as those hours pass", quotas.Exhausted("block"));
    }

    [Theory]
    [InlineData("WindowQuotaBytes=0", "WindowQuotaBytes of provider 'mock' must be at least 1 B, or empty for none; 0 bytes is not")]
    [InlineData("QuotaWindowHours=0", "QuotaWindowHours of provider 'mock' must be between 1 and 8760; 0 is not")]
    [InlineData("DailyQuotaBytes=0", "DailyQuotaBytes of provider 'mock' must be at least 1 B, or empty for none; 0 bytes is not")]
    [InlineData("MonthlyQuotaBytes=-5", "MonthlyQuotaBytes of provider 'mock' must be at least 1 B, or empty for none; -5 bytes is not")]
    [InlineData("QuotaResetDay=31", "QuotaResetDay of provider 'mock' must be between 1 and 28; 31 is not")]
    public void Allowances_at_the_edge_are_refused_naming_the_setting(string setting, string reason)
    {
        var (key, value) = (setting.Split('=')[0], long.Parse(setting.Split('=')[1], System.Globalization.CultureInfo.InvariantCulture));
        var provider = key switch
        {
            "DailyQuotaBytes" => new UsenetProviderOptions { Name = "mock", Host = "h", DailyQuotaBytes = value },
            "MonthlyQuotaBytes" => new UsenetProviderOptions { Name = "mock", Host = "h", MonthlyQuotaBytes = value },
            "WindowQuotaBytes" => new UsenetProviderOptions { Name = "mock", Host = "h", WindowQuotaBytes = value },
            "QuotaWindowHours" => new UsenetProviderOptions { Name = "mock", Host = "h", QuotaWindowHours = (int)value },
            _ => new UsenetProviderOptions { Name = "mock", Host = "h", QuotaResetDay = (int)value },
        };
        var error = Assert.Throws<ArgumentException>(() => new UsenetOptions { Providers = [provider] }.Validate());
        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_provider_at_its_quota_is_passed_over_the_play_goes_on_from_the_next_and_fails_clearly_when_none_is_left()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        // Two providers holding the same articles (same seed and message-ids).
        var token = "quota-" + Guid.NewGuid().ToString("N");
        await using var capped = new Twin(token);
        await capped.InitializeAsync();
        await using var spare = new Twin(token);
        await spare.InitializeAsync();
        const long Allowance = 3_000_000;
        var film = capped.Store.AddGeneratedFile("Film.2026.mkv", 16L * 1024 * 1024, 256 * 1024);
        spare.Store.AddGeneratedFile("Film.2026.mkv", 16L * 1024 * 1024, 256 * 1024);
        var nzb = capped.Nzb("Film.2026", film);

        string folder;
        await using (var host = await IngestionHost.StartAsync(data.Path, capped.Port, ct, null,
            "--Usenet:Providers:0:DailyQuotaBytes=" + Allowance, "--Usenet:Providers:0:PipelineDepth=1",
            "--Usenet:Providers:1:Name=spare", "--Usenet:Providers:1:Host=127.0.0.1", "--Usenet:Providers:1:Port=" + spare.Port,
            "--Usenet:Providers:1:UseTls=false", "--Usenet:Providers:1:MaxConnections=4", "--Usenet:Providers:1:Priority=1"))
        {
            folder = (await host.AddAndWaitAsync(nzb, "Film.2026.nzb", ct)).GetProperty("name").GetString()!;
            using var played = await host.GetAsync(folder, film.Name, ct);
            Assert.Equal(HttpStatusCode.OK, played.StatusCode);
            Assert.Equal(film.ReadExpected(0, (int)film.Size).ToArray(), await played.Content.ReadAsByteArrayAsync(ct));
            // The dashboard says why it is not used, and until when.
            var row = host.Server.Services.GetRequiredService<NzbDav.Server.Live.DashboardSampler>().Sample().Providers.Single(p => p.Name == "mock");
            Assert.Equal("quota", row.State);
            Assert.StartsWith("daily quota of 3.0 MB reached", row.Quota, StringComparison.Ordinal);
            await host.StopAndWaitForProviderAsync(capped.Server, ct);
        }
        var sent = capped.Server.Stats.BytesSent;
        output.WriteLine($"capped provider sent {sent:N0} bytes against an allowance of {Allowance:N0}; spare sent {spare.Server.Stats.BytesSent:N0}");
        // At most the articles already asked of it when it reached its allowance: one per session (pipelining 1, 4 sessions).
        Assert.InRange(sent, Allowance, Allowance + (4 * 300 * 1024));
        Assert.True(spare.Server.Stats.BytesSent > film.Size / 2);

        // The same day, after a restart, with the spare gone: the allowance is still spent, and the read fails, never a short 200.
        await spare.DisposeAsync();
        await using (var host = await IngestionHost.StartAsync(data.Path, capped.Port, ct, null, "--Usenet:Providers:0:DailyQuotaBytes=" + Allowance))
        {
            var before = capped.Server.Stats.GetCommandCount(MockCommandKind.Body);
            var failed = await Assert.ThrowsAnyAsync<Exception>(async () =>
            {
                using var again = await host.GetAsync(folder, film.Name, ct, "bytes=8000000-");
                await again.Content.ReadAsByteArrayAsync(ct);
            });
            Assert.True(failed is HttpRequestException or IOException, failed.ToString());
            Assert.Equal(before, capped.Server.Stats.GetCommandCount(MockCommandKind.Body));
        }
    }

    [Fact]
    [SlowTest("plays 2 GB through WebDAV over loopback")]
    public async Task A_provider_capped_at_1_GB_sends_at_most_one_article_per_session_beyond_it_with_full_pipelines_while_2_GB_play_on_from_the_next()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        var token = "quota-gb-" + Guid.NewGuid().ToString("N");
        await using var capped = new Twin(token);
        await capped.InitializeAsync();
        await using var spare = new Twin(token);
        await spare.InitializeAsync();
        const long Allowance = 1_000_000_000;
        const int Segment = 768 * 1024;
        const int Sessions = 8;
        var film = capped.Store.AddGeneratedFile("Big.2026.mkv", 2_000_000_000, Segment);
        spare.Store.AddGeneratedFile("Big.2026.mkv", 2_000_000_000, Segment);

        await using var host = await IngestionHost.StartAsync(data.Path, capped.Port, ct, null,
            "--Usenet:Providers:0:DailyQuotaBytes=" + Allowance, "--Usenet:Providers:0:MaxConnections=" + Sessions,
            "--Usenet:Providers:1:Name=spare", "--Usenet:Providers:1:Host=127.0.0.1", "--Usenet:Providers:1:Port=" + spare.Port,
            "--Usenet:Providers:1:UseTls=false", "--Usenet:Providers:1:MaxConnections=8", "--Usenet:Providers:1:Priority=1");
        var folder = (await host.AddAndWaitAsync(capped.Nzb("Big.2026", film), "Big.2026.nzb", ct)).GetProperty("name").GetString()!;
        using (var played = await host.GetAsync(folder, film.Name, ct))
        {
            Assert.Equal(HttpStatusCode.OK, played.StatusCode);
            await using var body = await played.Content.ReadAsStreamAsync(ct);
            var buffer = new byte[1024 * 1024];
            long offset = 0;
            int read;
            while ((read = await body.ReadAtLeastAsync(buffer, buffer.Length, throwOnEndOfStream: false, ct)) > 0)
            {
                Assert.True(buffer.AsSpan(0, read).SequenceEqual(film.ReadExpected(offset, read)), $"wrong bytes at {offset:N0}");
                offset += read;
            }
            Assert.Equal(film.Size, offset);
        }
        await host.StopAndWaitForProviderAsync(capped.Server, ct);

        var sent = capped.Server.Stats.BytesSent;
        var article = film.Articles.Max(a => a.EncodedSize);
        output.WriteLine($"capped at {Allowance:N0}: sent {sent:N0} ({sent - Allowance:N0} beyond, {(double)(sent - Allowance) / article:F2} articles of {article:N0} bytes; {Sessions} sessions, pipeline depth 4); spare sent {spare.Server.Stats.BytesSent:N0}");
        Assert.InRange(sent, Allowance, Allowance + (Sessions * article));
        Assert.True(spare.Server.Stats.BytesSent > film.Size - Allowance);
    }

    private sealed class Twin(string token) : MockProviderFixture(new MockNntpOptions { Seed = 23, MessageIdToken = token });

    private sealed class Fixed(UsenetOptions value) : IOptionsMonitor<UsenetOptions>
    {
        public UsenetOptions CurrentValue => value;

        public UsenetOptions Get(string? name) => value;

        public IDisposable? OnChange(Action<UsenetOptions, string?> listener) => null;
    }
}

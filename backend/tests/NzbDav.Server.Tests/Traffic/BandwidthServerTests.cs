using System.Net;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Server.Live;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Server.Tests.WebUi;
using NzbDav.Testing;
using NzbDav.Usenet.Limiting;

namespace NzbDav.Server.Tests.Traffic;

/// <summary>The bandwidth cap and its schedule through the Settings API: refused naming the field when they cannot be read, applied at once when they can.</summary>
public sealed class BandwidthServerTests
{
    private const string Admin = "bandwidth-admin-pass";
    private const long MiB = 1024 * 1024;

    [Fact]
    public async Task A_cap_and_schedule_apply_at_runtime_and_settings_at_the_edge_are_refused_naming_the_field_with_nothing_half_applied()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var provider = new MockProviderFixture();
        await provider.InitializeAsync();
        var file = provider.Store.AddGeneratedFile("Film.2026.mkv", 8 * MiB, 256 * 1024);
        await using var host = await IngestionHost.StartAsync(data.Path, provider.Port, ct, null,
            "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin);
        var folder = (await host.AddAndWaitAsync(provider.Nzb("Film.2026", file), "Film.2026.nzb", ct)).GetProperty("name").GetString()!;
        var bandwidth = host.Server.Services.GetRequiredService<BandwidthLimiter>();
        Assert.Null(bandwidth.GlobalRate);
        // No cap configured: no Bandwidth line on the dashboard.
        Assert.Null(host.Server.Services.GetRequiredService<DashboardSampler>().Sample().Bandwidth);

        using var ui = new UiClient(host.Server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Admin, ct);
        await RefusedAsync(ui, new() { ["Usenet:Bandwidth:MaxBytesPerSecond"] = "20 MiB", ["Usenet:Bandwidth:Schedule"] = "01:00-07:00=unlimited, 06:00-08:00=10 MiB" },
            "Bandwidth schedule (Usenet:Bandwidth:Schedule): '01:00-07:00=unlimited' and '06:00-08:00=10 MiB' overlap", ct);
        await RefusedAsync(ui, new() { ["Usenet:Bandwidth:Schedule"] = "7am-9am=5 MiB" }, "'7am' in '7am-9am=5 MiB' is not a time of day", ct);
        await RefusedAsync(ui, new() { ["Usenet:Bandwidth:MaxBytesPerSecond"] = "0" }, "Provider bandwidth cap (per second)", ct);
        await RefusedAsync(ui, new() { ["Usenet:Bandwidth:MaxBytesPerSecond"] = "-5" }, "Provider bandwidth cap (per second)", ct);
        // Nothing of the refused changes was applied, the cap in the same change as the bad schedule included.
        Assert.Null(bandwidth.GlobalRate);

        using (var saved = await ui.PostAsync("/ui/api/settings", new { values = new Dictionary<string, string?> { ["Usenet:Bandwidth:MaxBytesPerSecond"] = "20 MiB" } }, ct))
        {
            Assert.True(saved.IsSuccessStatusCode, await saved.Content.ReadAsStringAsync(ct));
        }
        await Waiting.WaitUntilAsync(() => bandwidth.GlobalRate == 20 * MiB, ct);
        // The dashboard and /metrics say what is in force.
        Assert.Equal(20 * MiB, host.Server.Services.GetRequiredService<DashboardSampler>().Sample().Bandwidth!.BytesPerSecond);
        using (var scraper = new HttpClient { BaseAddress = host.Server.Http.BaseAddress })
        {
            scraper.DefaultRequestHeaders.Add("X-Api-Key", NzbDav.Server.Tests.Api.TestServer.ApiKey);
            var scrape = await NzbDav.Server.Tests.Monitoring.PrometheusScrape.GetAsync(scraper, "/metrics", ct);
            Assert.Equal(20 * MiB, scrape.Value("nzbdav_bandwidth_cap"));
            Assert.Equal(0, scrape.Value("nzbdav_bandwidth_waiting"));
        }
        using (var played = await host.GetAsync(folder, file.Name, ct))
        {
            Assert.Equal(HttpStatusCode.OK, played.StatusCode);
            Assert.Equal(file.ReadExpected(0, (int)file.Size).ToArray(), await played.Content.ReadAsByteArrayAsync(ct));
        }

        // A window covering the whole day lifts it, at once.
        using (var saved = await ui.PostAsync("/ui/api/settings", new { values = new Dictionary<string, string?> { ["Usenet:Bandwidth:Schedule"] = "00:00-24:00=unlimited" } }, ct))
        {
            Assert.True(saved.IsSuccessStatusCode, await saved.Content.ReadAsStringAsync(ct));
        }
        await Waiting.WaitUntilAsync(() => bandwidth.GlobalRate is null, ct);
        // A cap configured, full speed now by the schedule.
        var view = host.Server.Services.GetRequiredService<DashboardSampler>().Sample().Bandwidth;
        Assert.NotNull(view);
        Assert.Null(view.BytesPerSecond);
    }

    private static async Task RefusedAsync(UiClient ui, Dictionary<string, string?> values, string expected, CancellationToken ct)
    {
        using var refused = await ui.PostAsync("/ui/api/settings", new { values }, ct);
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Contains(expected, (await UiClient.ReadAsync(refused, ct)).GetProperty("error").GetString(), StringComparison.Ordinal);
    }
}

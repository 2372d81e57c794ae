using System.Net;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.MockNntp;
using NzbDav.Server.Live;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Server.Tests.WebUi;
using NzbDav.Streaming.Disk;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.WebDav;

/// <summary>The disk segment cache in the real server over a mock provider: what was played is played again after a restart at no provider cost, and a cache that cannot write says so on /health and the dashboard while files still play.</summary>
public sealed class DiskCacheServerTests
{
    private const string Admin = "correct horse battery";

    [Fact]
    public async Task A_file_played_before_a_restart_is_played_after_it_without_a_provider_fetch_and_the_dashboard_counts_the_bytes_saved()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var provider = new MockProviderFixture();
        await provider.InitializeAsync();
        var file = provider.Store.AddGeneratedFile("Show.S01E01.mkv", 3L * 1024 * 1024 + 12345, 256 * 1024);
        var nzb = provider.Nzb("Show.S01E01", file);
        var cache = Path.Combine(data.Path, "segment-cache");
        var expected = file.ReadExpected(0, (int)file.Size).ToArray();

        string folder;
        await using (var host = await IngestionHost.StartAsync(data.Path, provider.Port, ct, null, "--Cache:Path=" + cache, "--Cache:PlaybackWriteBytesPerSecond=0"))
        {
            folder = (await host.AddAndWaitAsync(nzb, "Show.S01E01.nzb", ct)).GetProperty("name").GetString()!;
            using var first = await host.GetAsync(folder, file.Name, ct);
            Assert.Equal(expected, await first.Content.ReadAsByteArrayAsync(ct));
            var store = host.Server.Services.GetRequiredService<DiskSegmentCache>().Store!;
            await store.WhenIdleAsync(ct);
            Assert.Equal(file.Articles.Count, store.Count);
            await host.StopAndWaitForProviderAsync(provider.Server, ct);
        }
        var bodies = provider.Server.Stats.GetCommandCount(MockCommandKind.Body);

        await using (var host = await IngestionHost.StartAsync(data.Path, provider.Port, ct, null, "--Cache:Path=" + cache, "--Cache:PlaybackWriteBytesPerSecond=0"))
        {
            using (var again = await host.GetAsync(folder, file.Name, ct))
                Assert.Equal(expected, await again.Content.ReadAsByteArrayAsync(ct));
            // A player's seek near the end: from disk as well.
            using (var tail = await host.GetAsync(folder, file.Name, ct, "bytes=-70000"))
            {
                Assert.Equal(HttpStatusCode.PartialContent, tail.StatusCode);
                Assert.Equal(expected[^70000..], await tail.Content.ReadAsByteArrayAsync(ct));
            }

            var dashboard = host.Server.Services.GetRequiredService<DashboardSampler>().Sample();
            var disk = Assert.IsType<DiskCacheView>(dashboard.DiskCache);
            Assert.Equal(cache, disk.Path);
            Assert.True(disk.SavedBytes >= file.Size, $"{disk.SavedBytes} bytes saved");
            Assert.Null(disk.Degraded);
            Assert.Equal(file.Articles.Count, disk.Segments);

            using var health = await host.Server.Http.GetAsync("/health", ct);
            var body = JsonDocument.Parse(await health.Content.ReadAsStringAsync(ct)).RootElement;
            Assert.Equal("ok", body.GetProperty("status").GetString());
            Assert.Equal("ok", body.GetProperty("diskCache").GetProperty("state").GetString());
            await host.StopAndWaitForProviderAsync(provider.Server, ct);
        }
        Assert.Equal(bodies, provider.Server.Stats.GetCommandCount(MockCommandKind.Body));
    }

    [Fact]
    public async Task A_cache_folder_that_cannot_be_used_is_degraded_on_health_with_the_reason_files_still_play_and_a_new_folder_set_in_the_ui_takes_over()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var provider = new MockProviderFixture();
        await provider.InitializeAsync();
        var file = provider.Store.AddGeneratedFile("Film.2026.mkv", 2L * 1024 * 1024, 256 * 1024);
        var blocked = Path.Combine(data.Path, "not-a-folder");
        await File.WriteAllTextAsync(blocked, "a file where the cache folder should be", ct);
        var expected = file.ReadExpected(0, (int)file.Size).ToArray();

        // In settings.json, below the web UI (a command-line value would lock the setting).
        await File.WriteAllTextAsync(NzbDav.Server.Configuration.RuntimeSettings.PathIn(data.Path),
            JsonSerializer.Serialize(new { Cache = new { Path = blocked, PlaybackWriteBytesPerSecond = 0 } }), ct);
        await using var host = await IngestionHost.StartAsync(data.Path, provider.Port, ct, null,
            "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin);
        var folder = (await host.AddAndWaitAsync(provider.Nzb("Film.2026", file), "Film.2026.nzb", ct)).GetProperty("name").GetString()!;

        var health = await HealthAsync(host, ct);
        Assert.Equal("degraded", health.GetProperty("status").GetString());
        var disk = health.GetProperty("diskCache");
        Assert.Equal("degraded", disk.GetProperty("state").GetString());
        Assert.StartsWith("cannot use " + blocked, disk.GetProperty("reason").GetString(), StringComparison.Ordinal);
        Assert.Equal(disk.GetProperty("reason").GetString(), host.Server.Services.GetRequiredService<DashboardSampler>().Sample().DiskCache!.Degraded);
        using (var played = await host.GetAsync(folder, file.Name, ct))
            Assert.Equal(expected, await played.Content.ReadAsByteArrayAsync(ct));

        // A relative folder is refused naming the setting; a usable one takes over without a restart.
        using var ui = new UiClient(host.Server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Admin, ct);
        using (var refused = await ui.PostAsync("/ui/api/settings", new { values = new Dictionary<string, string?> { ["Cache:Path"] = "cache" } }, ct))
        {
            Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
            Assert.Contains("Disk cache folder must be an absolute path", (await UiClient.ReadAsync(refused, ct)).GetProperty("error").GetString());
        }
        var usable = Path.Combine(data.Path, "cache-2");
        using (var saved = await ui.PostAsync("/ui/api/settings", new { values = new Dictionary<string, string?> { ["Cache:Path"] = usable } }, ct))
            Assert.True(saved.IsSuccessStatusCode, await saved.Content.ReadAsStringAsync(ct));
        var cache = host.Server.Services.GetRequiredService<DiskSegmentCache>();
        await Waiting.WaitUntilAsync(() => cache.Store?.Path == usable, ct);
        Assert.Equal("ok", (await HealthAsync(host, ct)).GetProperty("status").GetString());
        using (var played = await host.GetAsync(folder, file.Name, ct))
            Assert.Equal(expected, await played.Content.ReadAsByteArrayAsync(ct));
        await cache.Store!.WhenIdleAsync(ct);
        Assert.True(cache.Store.Count > 0);
    }

    private static async Task<JsonElement> HealthAsync(IngestionHost host, CancellationToken ct)
    {
        using var response = await host.Server.Http.GetAsync("/health", ct);
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync(ct)).RootElement.Clone();
    }
}

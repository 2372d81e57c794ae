using System.Net;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Server.Traffic;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.Traffic;

/// <summary>The traffic ledger in the real server over a mock provider: every byte the provider sent is accounted to a consumer, the total matches the provider's own count, and the hours survive a restart.</summary>
public sealed class TrafficLedgerTests(ITestOutputHelper output)
{
    [Fact]
    public async Task A_mixed_run_is_accounted_to_its_consumers_and_the_providers_total_matches_what_it_sent_within_one_percent()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var provider = new MockProviderFixture();
        await provider.InitializeAsync();
        var movie = provider.Store.AddGeneratedFile("Film.2026.mkv", 100L * 1024 * 1024, 700 * 1024);
        var episode = provider.Store.AddGeneratedFile("Show.S01E02.mkv", 3L * 1024 * 1024, 256 * 1024);

        await using (var host = await IngestionHost.StartAsync(data.Path, provider.Port, ct))
        {
            var folder = (await host.AddAndWaitAsync(provider.Nzb("Film.2026", movie, episode), "Film.2026.nzb", ct)).GetProperty("name").GetString()!;
            // Plex plays the film; ffprobe reads the episode's head and tail; curl fetches a range from the film's middle.
            await GetAsync(host, folder, movie.Name, "Plex Media Server/1.41.3", null, movie.Size, ct);
            await GetAsync(host, folder, episode.Name, "Lavf/61.7.100", "bytes=0-65535", 65536, ct);
            await GetAsync(host, folder, episode.Name, "Lavf/61.7.100", "bytes=-65536", 65536, ct);
            await GetAsync(host, folder, movie.Name, "curl/8.5.0", "bytes=50000000-50999999", 1_000_000, ct);
            await host.StopAndWaitForProviderAsync(provider.Server, ct);
        }

        var sent = provider.Server.Stats.BytesSent;
        await using (var context = await OpenDatabaseAsync(data.Path, ct))
        {
            var rows = await context.TrafficHours.ToListAsync(ct);
            var received = rows.Where(r => r.Provider == "mock").Sum(r => r.ReceivedBytes);
            output.WriteLine($"accounted {received:N0} of the {sent:N0} bytes the mock sent: {(double)received / sent:F5}");
            Assert.InRange(received, sent * 0.99, sent * 1.01);
            var byConsumer = rows.GroupBy(r => r.Consumer).ToDictionary(g => g.Key, g => (Received: g.Sum(r => r.ReceivedBytes), Served: g.Sum(r => r.ServedBytes)));
            Assert.Equal(
                ["Plex Media Server (admin) · playback", "curl (admin) · playback", "ffmpeg/ffprobe (admin) · probe", "queue", TrafficLedger.Sessions],
                byConsumer.Keys.Where(k => k != "health check").Order(StringComparer.Ordinal));
            Assert.Equal(movie.Size, byConsumer["Plex Media Server (admin) · playback"].Served);
            Assert.True(byConsumer["Plex Media Server (admin) · playback"].Received >= movie.Size, "a played file costs at least its size");
            Assert.Equal(2 * 65536, byConsumer["ffmpeg/ffprobe (admin) · probe"].Served);
            Assert.InRange(byConsumer["ffmpeg/ffprobe (admin) · probe"].Received, 1, 4L * 300 * 1024);
            Assert.Equal(1_000_000, byConsumer["curl (admin) · playback"].Served);
            // Ingestion read the first article of each file: the queue's account.
            Assert.True(byConsumer["queue"].Received > 0);
            Assert.True(byConsumer[TrafficLedger.Sessions].Received > 0, "greetings are counted as the provider sent them");
            var files = await context.TrafficFileDays.ToListAsync(ct);
            Assert.Equal(2, files.Single(f => f.Path.EndsWith(episode.Name, StringComparison.Ordinal)).Reads);
            Assert.Equal(movie.Size + 1_000_000, files.Single(f => f.Path.EndsWith(movie.Name, StringComparison.Ordinal)).ServedBytes);
        }

        // A restart keeps the hours, and adds to them.
        await using (var host = await IngestionHost.StartAsync(data.Path, provider.Port, ct))
        {
            var ledger = host.Server.Services.GetRequiredService<TrafficLedger>();
            await ledger.FlushAsync(ct);
            await host.StopAndWaitForProviderAsync(provider.Server, ct);
        }
        await using (var context = await OpenDatabaseAsync(data.Path, ct))
        {
            var received = await context.TrafficHours.Where(r => r.Provider == "mock").SumAsync(r => r.ReceivedBytes, ct);
            Assert.InRange(received, provider.Server.Stats.BytesSent * 0.99, provider.Server.Stats.BytesSent * 1.01);
        }
    }

    private static async Task GetAsync(IngestionHost host, string folder, string file, string userAgent, string? range, long expected, CancellationToken ct)
    {
        var path = "/content/tv/" + Uri.EscapeDataString(folder) + "/" + Uri.EscapeDataString(file);
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.TryAddWithoutValidation("User-Agent", userAgent);
        if (range is not null)
            request.Headers.TryAddWithoutValidation("Range", range);
        using var response = await host.Dav.SendAsync(request, ct);
        Assert.Equal(range is null ? HttpStatusCode.OK : HttpStatusCode.PartialContent, response.StatusCode);
        Assert.Equal(expected, (await response.Content.ReadAsByteArrayAsync(ct)).LongLength);
    }

    private static async Task<NzbDavDbContext> OpenDatabaseAsync(string dataDirectory, CancellationToken ct)
    {
        var options = new DbContextOptionsBuilder<NzbDavDbContext>().UseSqlite($"Data Source={Path.Combine(dataDirectory, DataServiceCollectionExtensions.DatabaseFileName)}").Options;
        var context = new NzbDavDbContext(options);
        await context.Database.OpenConnectionAsync(ct);
        return context;
    }
}

using System.Diagnostics;
using System.Security.Cryptography;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.MockNntp;
using NzbDav.Server.Health;
using NzbDav.Server.Health.Par2;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.Health;

/// <summary>
/// The figure at full size: a 1 GiB file in 700 KiB articles with 5 % recovery data made by
/// Debian's par2 (500 slices: par2's default 2,000 take four times as long to create, which the
/// suite's time budget cannot spare), 1 % of its articles lost on every provider (scattered),
/// repaired through the host over the mock; the WebDAV GET afterwards must be byte-identical
/// (SHA-256) and pass par2 verify.
/// </summary>
public sealed class Par2LargeRepairTests
{
    private const string Release = "Film.2026.1080p-GRP";
    private const string FileName = "Film.2026.1080p.mkv";
    private const int ArticleSize = 700 * 1024;

    [Fact]
    [SlowTest("makes 1 GiB of recovery data with par2, repairs it and reads it back over WebDAV")]
    public async Task A_1_GiB_file_with_1_percent_of_its_articles_lost_is_repaired_byte_exact_from_5_percent_recovery_data()
    {
        var ct = TestContext.Current.CancellationToken;
        var output = TestContext.Current.TestOutputHelper;
        using var data = new TempDirectory();
        using var release = new TempDirectory();
        var content = new byte[1 << 30];
        new Random(33).NextBytes(content);
        var original = SHA256.HashData(content);
        await File.WriteAllBytesAsync(Path.Combine(release.Path, FileName), content, ct);
        var created = Stopwatch.StartNew();
        Par2Tool.Run(release.Path, "create", "-q", "-q", "-b500", "-r5", "-n4", "Film.par2", FileName);
        output?.WriteLine($"par2 create: {created.Elapsed.TotalSeconds:F1} s");

        await using var provider = new MockNntpServer(new MockNntpOptions { MessageIdToken = "par2big" });
        await provider.StartAsync(ct);
        var film = provider.Store.AddFile(FileName, content, ArticleSize);
        foreach (var par2 in Directory.GetFiles(release.Path, "*.par2").Order(StringComparer.Ordinal))
            provider.Store.AddFile(Path.GetFileName(par2), await File.ReadAllBytesAsync(par2, ct), ArticleSize);
        using var nzb = new MemoryStream();
        provider.WriteNzb(nzb, Release);
        await using var host = await IngestionHost.StartAsync(data.Path, provider.Port, ct, output,
            "--Health:ConfirmDelay=00:00:00", "--Health:MaxMissingPercent=5", "--Health:Par2Repair=false", "--Usenet:Providers:0:MaxConnections=20",
            // 16 accumulators of 2.1 MB would be 34 MB: under a budget of 8 MiB the slices go to disk and the rebuild runs in stripes.
            "--Health:Par2MemoryBytes=8388608");
        await host.AddAndWaitAsync(nzb.ToArray(), Release + ".nzb", ct);

        // 15 of 1,498 articles, one in every hundred from the 50th: 1 %.
        var parts = (int)((content.LongLength + ArticleSize - 1) / ArticleSize);
        var lost = Enumerable.Range(0, 15).Select(i => 50 + (i * 100)).ToList();
        foreach (var part in lost)
            provider.Store.SetMissing(film, part, part, true);
        var services = host.Server.Services;
        Guid itemId, jobId;
        await using (var context = await services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(ct))
        {
            var found = await context.DavItems.Where(i => i.Name == FileName).Select(i => new { i.Id, i.JobId }).SingleAsync(ct);
            (itemId, jobId) = (found.Id, found.JobId);
        }

        var checks = services.GetRequiredService<HealthCheckService>();
        await checks.CheckNowAsync(itemId, full: true, ct);
        var confirmed = await checks.CheckNowAsync(itemId, full: true, ct);
        Assert.Equal((FileHealthState.Degraded, 15), (confirmed!.State, confirmed.ConfirmedHoles));

        var repairer = services.GetRequiredService<Par2JobRepairer>();
        var plan = await repairer.PlanAsync(jobId, ct);
        output?.WriteLine($"plan: {plan.Summary}");
        // 20 accumulators of 2.1 MB pass the 8 MiB budget: the plan says what the rebuild stores meanwhile.
        Assert.Contains("in the data directory while it rebuilds (past Health:Par2MemoryBytes)", plan.Summary, StringComparison.Ordinal);
        var timer = Stopwatch.StartNew();
        var result = await repairer.RepairAsync(jobId, ct);
        var repairTime = timer.Elapsed;
        Assert.True(result.Repaired, result.Message);
        Assert.Equal(15, result.SegmentsRebuilt);
        Assert.Contains("Rebuilt in stripes within 8.4 MB of memory", result.Message, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFiles(Path.Combine(data.Path, "par2-scratch")));
        var ratio = result.DecodedBytes / (double)result.SliceBytes;
        output?.WriteLine($"repair: {repairTime.TotalSeconds:F2} s; {result.Message}");
        output?.WriteLine($"articles {result.DecodedBytes:N0} decoded ({result.ProviderBytes:N0} on the wire) for {result.SliceBytes:N0} bytes of slices: {ratio:F4} ({result.ProviderBytes / (double)result.SliceBytes:F4} on the wire); {parts:N0} articles");
        Assert.InRange(ratio, 1.0, 1.02);

        // The file as a player gets it now: every byte the original's, and par2 agrees.
        var served = Path.Combine(release.Path, FileName);
        File.Delete(served);
        timer.Restart();
        using (var response = await host.GetAsync(Release, FileName, ct))
        {
            Assert.True(response.IsSuccessStatusCode, response.StatusCode.ToString());
            await using var body = await response.Content.ReadAsStreamAsync(ct);
            await using var file = File.Create(served);
            await body.CopyToAsync(file, ct);
        }

        output?.WriteLine($"GET after the repair: {timer.Elapsed.TotalSeconds:F2} s");
        await using (var file = File.OpenRead(served))
            Assert.Equal(original, await SHA256.HashDataAsync(file, ct));
        Par2Tool.Run(release.Path, "verify", "-q", "-q", "Film.par2");
    }
}

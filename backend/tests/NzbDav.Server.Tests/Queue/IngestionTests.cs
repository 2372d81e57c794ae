using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.Queue;

public sealed class IngestionTests(MockProviderFixture provider)
{
    [Fact]
    public async Task Sonarr_conversation_ingests_an_obfuscated_release_named_by_par2()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        using var work = new TempDirectory();
        var nntp = provider.Server;
        var (nzb, video) = await ObfuscatedRelease.PostAsync(nntp, work.Path, ct);
        await using var server = await TestServer.StartAsync(temp.Path, nntp.Port, holdQueue: false, ct);

        Assert.StartsWith("4.", (await server.GetAsync("mode=version", ct)).GetProperty("version").GetString());
        await server.GetAsync("mode=get_config&apikey=" + TestServer.ApiKey, ct);
        var added = await server.AddFileAsync(nzb, "name", "Sonarr Title S01E01.nzb", "tv", ct);
        var id = added.GetProperty("nzo_ids")[0].GetString()!;

        var slot = await server.WaitForHistoryAsync(id, mustStayQueued: true, ct);
        Assert.Equal("Completed", slot.GetProperty("status").GetString());
        Assert.Equal("/mnt/nzbdav/completed/tv/Sonarr Title S01E01", slot.GetProperty("storage").GetString());
        Assert.Equal(ObfuscatedRelease.VideoSize, slot.GetProperty("bytes").GetInt64());

        var factory = server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        await using (var context = await factory.CreateDbContextAsync(ct))
        {
            var file = await context.DavItems.SingleAsync(d => !d.IsDirectory, ct);
            Assert.Equal(ObfuscatedRelease.RealName, file.Name);
            Assert.Equal("/content/tv/Sonarr Title S01E01/" + ObfuscatedRelease.RealName, file.Path);
            var layout = DavFileLayoutCodec.Decode(file.Layout);
            var part = Assert.Single(layout.Parts);
            Assert.Equal(ObfuscatedRelease.SegmentSize, part.PartSize);
            Assert.Equal(video.Articles.Select(a => a.MessageId), part.MessageIds);
        }

        // Sonarr removes the job from the history after importing, with del_files=1: the files it
        // linked to stay in the library; the history no longer lists the job.
        var itemsBefore = await CountItemsAsync(factory, ct);
        var deleted = await server.GetAsync($"mode=history&name=delete&value={id}&del_files=1&apikey={TestServer.ApiKey}", ct);
        Assert.True(deleted.GetProperty("status").GetBoolean());
        Assert.Equal(itemsBefore, await CountItemsAsync(factory, ct));
        var history = (await server.GetAsync("mode=history&apikey=" + TestServer.ApiKey, ct)).GetProperty("history");
        Assert.DoesNotContain(history.GetProperty("slots").EnumerateArray(), s => s.GetProperty("nzo_id").GetString() == id);
    }

    [Fact]
    public async Task Missing_articles_fail_the_job_with_the_reason()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        var nntp = provider.Server;
        var file = nntp.Store.AddFile("video.mkv", new byte[5000], 1000);
        nntp.Store.SetMissing(file.Articles[0], true);
        var nzb = provider.Nzb("x", file);
        await using var server = await TestServer.StartAsync(temp.Path, nntp.Port, holdQueue: false, ct);

        var id = (await server.AddFileAsync(nzb, "nzbfile", "Gone.nzb", "tv", ct)).GetProperty("nzo_ids")[0].GetString()!;

        var slot = await server.WaitForHistoryAsync(id, mustStayQueued: true, ct);
        Assert.Equal("Failed", slot.GetProperty("status").GetString());
        Assert.Contains("missing on every provider", slot.GetProperty("fail_message").GetString());
    }

    [Fact]
    public async Task Jobs_survive_a_restart_and_complete_on_the_next_host()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        using var work = new TempDirectory();
        var nntp = provider.Server;
        var (nzb, _) = await ObfuscatedRelease.PostAsync(nntp, work.Path, ct);
        string queued, interrupted;
        await using (var first = await TestServer.StartAsync(temp.Path, nntp.Port, holdQueue: true, ct))
        {
            queued = (await first.AddFileAsync(nzb, "name", "Queued.nzb", "tv", ct)).GetProperty("nzo_ids")[0].GetString()!;
            interrupted = (await first.AddFileAsync(nzb, "name", "Interrupted.nzb", "tv", ct)).GetProperty("nzo_ids")[0].GetString()!;
            var factory = first.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
            await using var context = await factory.CreateDbContextAsync(ct);
            // As if the host died in the middle of ingesting it.
            await context.Jobs.Where(j => j.NzoId == interrupted).ExecuteUpdateAsync(s => s.SetProperty(j => j.Status, JobStatus.Processing), ct);
        }

        await using var second = await TestServer.StartAsync(temp.Path, nntp.Port, holdQueue: false, ct);
        Assert.Equal("Completed", (await second.WaitForHistoryAsync(queued, mustStayQueued: true, ct)).GetProperty("status").GetString());
        Assert.Equal("Completed", (await second.WaitForHistoryAsync(interrupted, mustStayQueued: true, ct)).GetProperty("status").GetString());
    }

    private static async Task<int> CountItemsAsync(IDbContextFactory<NzbDavDbContext> factory, CancellationToken cancellationToken)
    {
        await using var context = await factory.CreateDbContextAsync(cancellationToken);
        return await context.DavItems.CountAsync(cancellationToken);
    }
}

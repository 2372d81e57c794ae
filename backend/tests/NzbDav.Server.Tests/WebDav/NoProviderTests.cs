using System.Net.Http.Headers;
using System.Text;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;

namespace NzbDav.Server.Tests.WebDav;

/// <summary>A library file asked for while no Usenet provider is configured (a fresh install, or all removed).</summary>
public sealed class NoProviderTests
{
    [Fact]
    public async Task A_library_file_answers_503_saying_no_provider_is_configured()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct, "--NzbDav:WebDav:Password=pw");
        var factory = server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        await using (var context = await factory.CreateDbContextAsync(ct))
        {
            var job = new Job { Id = Guid.NewGuid(), NzoId = "SABnzbd_nzo_noprov", Name = "Show", Category = "tv", Status = JobStatus.Completed, NzbHash = "h" };
            var folder = new DavItem { Id = Guid.NewGuid(), JobId = job.Id, Name = "Show", Path = "/content/tv/Show", IsDirectory = true };
            var layout = DavFileLayoutCodec.Encode(new DavFileLayout([LayoutPart.WholeFile(["part1@example.invalid"], 1000, 1000)]));
            context.Jobs.Add(job);
            context.DavItems.Add(folder);
            context.DavItems.Add(new DavItem { Id = Guid.NewGuid(), JobId = job.Id, ParentId = folder.Id, Name = "e1.mkv", Path = "/content/tv/Show/e1.mkv", Size = 1000, Layout = layout });
            await context.SaveChangesAsync(ct);
        }

        using var request = new HttpRequestMessage(HttpMethod.Get, "/content/tv/Show/e1.mkv");
        request.Headers.Authorization = new AuthenticationHeaderValue("Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes("admin:pw")));
        using var response = await server.Http.SendAsync(request, ct);

        Assert.Equal(503, (int)response.StatusCode);
        Assert.Contains("No Usenet provider is configured", await response.Content.ReadAsStringAsync(ct));
    }
}

using System.Net;
using System.Net.Http.Headers;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.WebUi;

/// <summary>
/// The Files page's API over real sockets: browsing <c>/content</c> with each entry's WebDAV URL and
/// mount path, a file's bytes (whole, ranged, as a download) equal to what WebDAV serves, the read
/// test, and paths that are refused.
/// </summary>
public sealed class UiFilesTests(MockProviderFixture provider)
{
    private const string Password = "correct horse battery";

    [Fact]
    public async Task The_library_is_browsed_downloaded_ranged_and_read_tested_like_webdav_serves_it()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        var nntp = provider.Server;
        var (nzb, posted) = UiJobsTests.Post(nntp, "Show.S01E01.mkv", "Show.S01E01");
        var original = posted.ReadExpected(0, (int)posted.Size);
        await using var server = await TestServer.StartAsync(data.Path, nntp.Port, holdQueue: false, ct,
            "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password, "--NzbDav:Categories:0=tv", "--NzbDav:MountPath=/mnt/media/nzbdav/",
            "--NzbDav:WebDav:Password=dav-secret", "--NzbDav:WebDav:PublicUrl=https://dav.example.org/");
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Password, ct);
        using (var anonymous = await new HttpClient { BaseAddress = server.Http.BaseAddress }.GetAsync("/ui/api/files/raw?path=/content/tv", ct))
            Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);

        var id = await UiJobsTests.AddOneAsync(ui, "Show.S01E01.nzb", nzb, ct, ("category", "tv"));
        Assert.Equal("Completed", (await ui.WaitForHistoryAsync(id, ct)).GetProperty("status").GetString());

        var root = await UiJobsTests.GetAsync(ui, "/ui/api/files", ct);
        Assert.Equal("/content", root.GetProperty("path").GetString());
        Assert.Equal(System.Text.Json.JsonValueKind.Null, root.GetProperty("parent").ValueKind);
        Assert.Equal(["default", "tv"], root.GetProperty("entries").EnumerateArray().Select(e => e.GetProperty("name").GetString()));

        var job = await UiJobsTests.GetAsync(ui, "/ui/api/files?path=/content/tv/Show.S01E01", ct);
        Assert.Equal("/content/tv", job.GetProperty("parent").GetString());
        var file = Assert.Single(job.GetProperty("entries").EnumerateArray());
        Assert.Equal("Show.S01E01.mkv", file.GetProperty("name").GetString());
        Assert.False(file.GetProperty("isDirectory").GetBoolean());
        Assert.Equal(original.Length, file.GetProperty("size").GetInt64());
        Assert.Equal("https://dav.example.org/content/tv/Show.S01E01/Show.S01E01.mkv", file.GetProperty("webDavUrl").GetString());
        Assert.Equal("/mnt/media/nzbdav/content/tv/Show.S01E01/Show.S01E01.mkv", file.GetProperty("mountPath").GetString());
        var path = Uri.EscapeDataString(file.GetProperty("path").GetString()!);

        // The same bytes WebDAV serves, whole and ranged, and as a download.
        using var dav = new HttpClient { BaseAddress = server.Http.BaseAddress };
        dav.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic", Convert.ToBase64String("admin:dav-secret"u8.ToArray()));
        var viaDav = await dav.GetByteArrayAsync("/content/tv/Show.S01E01/Show.S01E01.mkv", ct);
        Assert.Equal(original, viaDav);
        using (var whole = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, $"/ui/api/files/raw?path={path}&download=true"), ct))
        {
            Assert.Equal(HttpStatusCode.OK, whole.StatusCode);
            Assert.Equal("attachment", whole.Content.Headers.ContentDisposition?.DispositionType);
            Assert.Equal("Show.S01E01.mkv", whole.Content.Headers.ContentDisposition?.FileName?.Trim('"'));
            Assert.Equal(viaDav, await whole.Content.ReadAsByteArrayAsync(ct));
        }

        var ranged = new HttpRequestMessage(HttpMethod.Get, $"/ui/api/files/raw?path={path}");
        ranged.Headers.Range = new RangeHeaderValue(3990, 4010);
        using (var partial = await ui.SendAsync(ranged, ct))
        {
            Assert.Equal(HttpStatusCode.PartialContent, partial.StatusCode);
            Assert.Null(partial.Content.Headers.ContentDisposition);
            Assert.Equal(original.AsSpan(3990, 21).ToArray(), await partial.Content.ReadAsByteArrayAsync(ct));
        }

        var beyond = new HttpRequestMessage(HttpMethod.Get, $"/ui/api/files/raw?path={path}");
        beyond.Headers.Range = new RangeHeaderValue(999_999, null);
        using (var unsatisfiable = await ui.SendAsync(beyond, ct))
            Assert.Equal(HttpStatusCode.RequestedRangeNotSatisfiable, unsatisfiable.StatusCode);

        using (var tested = await ui.PostAsync("/ui/api/files/test", new { path = file.GetProperty("path").GetString() }, ct))
        {
            Assert.Equal(HttpStatusCode.OK, tested.StatusCode);
            var result = await UiClient.ReadAsync(tested, ct);
            Assert.Equal(original.Length, result.GetProperty("bytes").GetInt64());
            Assert.True(result.GetProperty("firstByteMs").GetDouble() > 0);
            Assert.True(result.GetProperty("bytesPerSecond").GetDouble() > 0);
        }

        // Paths outside /content, dot segments, folders as files and files as folders are refused with the reason.
        foreach (var bad in new[] { "/nzbs", "/content/../nzbs", "relative", "/completed/tv" })
            await UiJobsTests.AssertRefusedAsync(await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/files?path=" + Uri.EscapeDataString(bad)), ct), HttpStatusCode.BadRequest, "is not a path under /content", ct);
        await UiJobsTests.AssertRefusedAsync(await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, $"/ui/api/files?path={path}"), ct), HttpStatusCode.BadRequest, "is a file, not a folder", ct);
        await UiJobsTests.AssertRefusedAsync(await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/files?path=/content/tv/Nothing"), ct), HttpStatusCode.NotFound, "There is nothing at", ct);
        await UiJobsTests.AssertRefusedAsync(await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/files/raw?path=/content/tv"), ct), HttpStatusCode.NotFound, "There is no file at", ct);
        await UiJobsTests.AssertRefusedAsync(await ui.PostAsync("/ui/api/files/test", new { path = "/content/tv" }, ct), HttpStatusCode.NotFound, "no library file", ct);
    }
}

using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using NzbDav.MockNntp;
using NzbDav.Server.Tests.Data;

namespace NzbDav.Server.Tests.WebDav;

public sealed class TreeTests(DavServerFixture dav) : IClassFixture<DavServerFixture>
{
    private static byte[] SampleNzb()
    {
        var nntp = new MockNntpServer();
        nntp.Store.AddFile("f00d.bin", Encoding.ASCII.GetBytes("hello webdav"), 1024);
        using var output = new MemoryStream();
        nntp.WriteNzb(output, "Sample");
        return output.ToArray();
    }

    private static async Task<JsonElement> SabAsync(DavTestServer server, string query, CancellationToken ct)
    {
        using var response = await server.Anonymous.GetAsync($"/api?output=json&apikey={DavTestServer.ApiKey}&{query}", ct);
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync(ct)).RootElement.Clone();
    }

    private static async Task<HttpResponseMessage> PutAsync(DavTestServer server, string path, byte[] body, CancellationToken ct)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/x-nzb");
        return await server.Http.PutAsync(path, content, ct);
    }

    [Fact]
    public async Task Put_of_an_nzb_queues_a_job_that_get_and_delete_see()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct);
        var nzb = SampleNzb();

        using (var put = await PutAsync(server, "/nzbs/tv/Show.S01E01.nzb", nzb, ct))
            Assert.Equal(201, (int)put.StatusCode);
        using (var putDefault = await PutAsync(server, "/nzbs/Other%20Thing.nzb", nzb, ct))
            Assert.Equal(201, (int)putDefault.StatusCode);

        var slots = (await SabAsync(server, "mode=queue", ct)).GetProperty("queue").GetProperty("slots").EnumerateArray().ToList();
        Assert.Equal(2, slots.Count);
        var tv = slots.Single(s => s.GetProperty("filename").GetString() == "Show.S01E01");
        Assert.Equal("tv", tv.GetProperty("cat").GetString());
        Assert.Equal("*", slots.Single(s => s.GetProperty("filename").GetString() == "Other Thing").GetProperty("cat").GetString());

        var listing = await DavHttp.MultistatusAsync(server.Http, "/nzbs/tv/", "1", null, ct);
        var entry = listing["/nzbs/tv/Show.S01E01.nzb"];
        Assert.Equal(nzb.Length.ToString(), DavHttp.OkProp(entry, "getcontentlength")!.Value);
        Assert.Equal("application/x-nzb", DavHttp.OkProp(entry, "getcontenttype")!.Value);
        var root = await DavHttp.MultistatusAsync(server.Http, "/nzbs/", "1", null, ct);
        Assert.Contains("/nzbs/Other Thing.nzb", root.Keys);
        Assert.Contains("/nzbs/movies/", root.Keys);
        Assert.Equal(nzb, await server.Http.GetByteArrayAsync("/nzbs/tv/Show.S01E01.nzb", ct));

        using (var delete = await server.Http.DeleteAsync("/nzbs/tv/Show.S01E01.nzb", ct))
            Assert.Equal(204, (int)delete.StatusCode);
        slots = (await SabAsync(server, "mode=queue", ct)).GetProperty("queue").GetProperty("slots").EnumerateArray().ToList();
        Assert.Equal("Other Thing", Assert.Single(slots).GetProperty("filename").GetString());
        using (var again = await server.Http.DeleteAsync("/nzbs/tv/Show.S01E01.nzb", ct))
            Assert.Equal(404, (int)again.StatusCode);
    }

    [Theory]
    [InlineData("/content/tv/x.nzb", 403)]
    [InlineData("/nzbs/readme.txt", 403)]
    [InlineData("/nzbs/nocategory/x.nzb", 409)]
    [InlineData("/x.nzb", 403)]
    [InlineData("/nzbs", 403)]
    public async Task Put_elsewhere_is_refused(string path, int status)
    {
        var ct = TestContext.Current.CancellationToken;
        // Shared: no test PUTs an accepted NZB into this server, so its queue stays empty.
        var server = dav.Server;

        using var response = await PutAsync(server, path, SampleNzb(), ct);

        Assert.Equal(status, (int)response.StatusCode);
        Assert.Equal(0, (await SabAsync(server, "mode=queue", ct)).GetProperty("queue").GetProperty("noofslots").GetInt32());
    }

    [Fact]
    public async Task Completed_entries_are_rclonelinks_to_stable_ids()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct, true, "--NzbDav:MountPath=/mnt/dav/");
        var (_, files) = await server.SeedCompletedJobAsync("tv", "Show S01E01", [("Show.S01E01.mkv", 2000), ("Show.S01E01.srt", 50)], ct);
        var (_, plain) = await server.SeedCompletedJobAsync("*", "Loose", [("a.mp4", 10)], ct);

        var top = await DavHttp.MultistatusAsync(server.Http, "/completed/", "1", null, ct);
        Assert.Contains("/completed/tv/", top.Keys);
        Assert.Contains("/completed/Loose/", top.Keys);
        var jobs = await DavHttp.MultistatusAsync(server.Http, "/completed/tv/", "1", null, ct);
        Assert.Contains("/completed/tv/Show S01E01/", jobs.Keys);
        var entries = await DavHttp.MultistatusAsync(server.Http, "/completed/tv/Show S01E01/", "1", null, ct);
        Assert.Equal(
            ["/completed/tv/Show S01E01/", "/completed/tv/Show S01E01/Show.S01E01.mkv.rclonelink", "/completed/tv/Show S01E01/Show.S01E01.srt.rclonelink"],
            entries.Keys.Order(StringComparer.Ordinal));

        var target = await server.Http.GetStringAsync("/completed/tv/Show%20S01E01/Show.S01E01.mkv.rclonelink", ct);
        Assert.Equal("/mnt/dav/.ids/" + files[0].Id.ToString("D"), target);
        Assert.Equal(target.Length.ToString(), DavHttp.OkProp(entries["/completed/tv/Show S01E01/Show.S01E01.mkv.rclonelink"], "getcontentlength")!.Value);
        Assert.Equal("/mnt/dav/.ids/" + plain[0].Id.ToString("D"), await server.Http.GetStringAsync("/completed/Loose/a.mp4.rclonelink", ct));

        var byId = await server.Http.GetByteArrayAsync(target["/mnt/dav".Length..], ct);
        Assert.Equal(PatternStream.Expected(0, 2000), byId);
        var ids = await DavHttp.MultistatusAsync(server.Http, "/.ids/", "1", null, ct);
        Assert.Equal(4, ids.Count);
    }

    [Fact]
    public async Task Strm_entries_hold_the_file_url()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        // Disposed by hand below, to start again on the same data directory.
        var server = await DavTestServer.StartAsync(temp.Path, ct, true, "--NzbDav:CompletedEntries=Strm");
        var (_, files) = await server.SeedCompletedJobAsync("movies", "Film", [("Film.2024.mkv", 300), ("Film.2024.nfo", 5)], ct);

        var entries = await DavHttp.MultistatusAsync(server.Http, "/completed/movies/Film/", "1", null, ct);

        Assert.Equal(["/completed/movies/Film/", "/completed/movies/Film/Film.2024.strm"], entries.Keys.Order(StringComparer.Ordinal));
        var url = await server.Http.GetStringAsync("/completed/movies/Film/Film.2024.strm", ct);
        var file = server.Address.GetLeftPart(UriPartial.Authority) + "/.ids/" + files[0].Id.ToString("D");
        Assert.StartsWith(file + "?t=", url, StringComparison.Ordinal);
        Assert.Equal(PatternStream.Expected(0, 300), await server.Http.GetByteArrayAsync(url, ct));

        // Jellyfin plays the URL as it is, without the WebDAV login: the signed link reads that one file, ranges too.
        Assert.Equal(PatternStream.Expected(0, 300), await server.Anonymous.GetByteArrayAsync(url, ct));
        using (var range = new HttpRequestMessage(HttpMethod.Get, url))
        {
            range.Headers.Range = new RangeHeaderValue(100, 149);
            using var partial = await server.Anonymous.SendAsync(range, ct);
            Assert.Equal(HttpStatusCode.PartialContent, partial.StatusCode);
            Assert.Equal(PatternStream.Expected(100, 50), await partial.Content.ReadAsByteArrayAsync(ct));
        }

        // Nothing else: no token, a wrong one, another file's, or another method.
        var token = url[(url.IndexOf("?t=", StringComparison.Ordinal) + 3)..];
        var wrong = (token[0] == 'A' ? "B" : "A") + token[1..];
        foreach (var refused in new[] { file, file + "?t=" + wrong, file + "?t=", server.Address.GetLeftPart(UriPartial.Authority) + "/.ids/" + files[1].Id.ToString("D") + "?t=" + token, server.Address.GetLeftPart(UriPartial.Authority) + "/.ids/?t=" + token })
        {
            using var response = await server.Anonymous.GetAsync(refused, ct);
            Assert.True(response.StatusCode == HttpStatusCode.Unauthorized, refused + " answered " + (int)response.StatusCode);
        }
        using (var propfind = new HttpRequestMessage(new HttpMethod("PROPFIND"), url))
        {
            propfind.Headers.Add("Depth", "0");
            using var response = await server.Anonymous.SendAsync(propfind, ct);
            Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        }

        // The key is kept in the data directory: after a restart the same links still play.
        await server.DisposeAsync();
        await using var again = await DavTestServer.StartAsync(temp.Path, ct, true, "--NzbDav:CompletedEntries=Strm");
        var path = new Uri(url).PathAndQuery;
        Assert.Equal(PatternStream.Expected(0, 300), await again.Anonymous.GetByteArrayAsync(again.Address.GetLeftPart(UriPartial.Authority) + path, ct));
    }

    [Fact]
    public async Task Delete_of_a_job_folder_removes_the_job_and_everything_else_is_read_only()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct);
        var (job, _) = await server.SeedCompletedJobAsync("tv", "Gone", [("e.mkv", 10)], ct);
        Assert.Equal(1, (await SabAsync(server, "mode=history", ct)).GetProperty("history").GetProperty("noofslots").GetInt32());

        foreach (var path in new[] { "/content/tv/Gone/e.mkv", "/content/tv/", "/completed/tv/Gone/e.mkv.rclonelink", "/", "/nzbs/", "/.ids/" })
        {
            using var refused = await server.Http.DeleteAsync(path, ct);
            Assert.True(403 == (int)refused.StatusCode, path + " answered " + (int)refused.StatusCode);
        }

        using (var delete = await server.Http.DeleteAsync("/content/tv/Gone/", ct))
            Assert.Equal(204, (int)delete.StatusCode);
        Assert.Equal(0, (await SabAsync(server, "mode=history", ct)).GetProperty("history").GetProperty("noofslots").GetInt32());
        using var missing = await DavHttp.PropfindAsync(server.Http, "/content/tv/Gone/e.mkv", "0", null, ct);
        Assert.Equal(404, (int)missing.StatusCode);
        Assert.NotEqual(Guid.Empty, job.Id);
    }
}

using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Nzb;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Testing;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.WebUi;

/// <summary>
/// The Queue and History pages' API over real sockets, with a mock Usenet provider behind the real
/// ingestion queue: uploads and URLs, the queue's pause, a job's pause, priority and delete, paging
/// and search of the history, retry, removal with and without files, and the stored NZB.
/// </summary>
public sealed class UiJobsTests(MockProviderFixture provider)
{
    private const string Password = "correct horse battery";

    [Fact]
    public async Task Uploads_wait_in_a_paused_queue_in_priority_order_then_complete_into_the_history()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        var nntp = provider.Server;
        var first = Nzb(nntp, "first.mkv", "First");
        var second = Nzb(nntp, "second.mkv", "Second");
        await using var server = await TestServer.StartAsync(data.Path, nntp.Port, holdQueue: false, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password, "--NzbDav:Categories:0=tv");
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Password, ct);

        Assert.True((await ReadOkAsync(await ui.PostAsync("/ui/api/queue/pause", new { }, ct), ct)).GetProperty("paused").GetBoolean());

        // Refused uploads say why and add nothing.
        await AssertRefusedAsync(await UploadAsync(ui, [], ct, ("category", "tv")), HttpStatusCode.BadRequest, "at least one NZB", ct);
        await AssertRefusedAsync(await UploadAsync(ui, [("a.nzb", first), ("b.nzb", second)], ct, ("name", "One name")), HttpStatusCode.BadRequest, "only be given when adding one NZB", ct);
        await AssertRefusedAsync(await UploadAsync(ui, [("a.nzb", first)], ct, ("priority", "7")), HttpStatusCode.BadRequest, "priority must be", ct);
        using (var noToken = new HttpRequestMessage(HttpMethod.Post, "/ui/api/queue/upload") { Content = Form([("a.nzb", first)]) })
            await AssertRefusedAsync(await ui.SendAsync(noToken, ct), HttpStatusCode.BadRequest, "X-CSRF-Token", ct);
        Assert.Empty((await GetAsync(ui, "/ui/api/queue", ct)).GetProperty("jobs").EnumerateArray());

        // Two files in one upload (as a drop of several files sends them), and an empty one refused by name.
        var added = await ReadOkAsync(await UploadAsync(ui, [("First.nzb", first), ("Second.nzb", second), ("Empty.nzb", [])], ct, ("category", "tv"), ("password", "secret")), ct);
        var ids = added.GetProperty("added").EnumerateArray().Select(a => a.GetProperty("id").GetString()!).ToArray();
        Assert.Equal(["First.nzb", "Second.nzb"], added.GetProperty("added").EnumerateArray().Select(a => a.GetProperty("file").GetString()));
        var refused = Assert.Single(added.GetProperty("refused").EnumerateArray());
        Assert.Equal("Empty.nzb", refused.GetProperty("file").GetString());
        Assert.Equal("The file is empty.", refused.GetProperty("error").GetString());

        var queue = await GetAsync(ui, "/ui/api/queue", ct);
        Assert.True(queue.GetProperty("paused").GetBoolean());
        Assert.Contains("tv", queue.GetProperty("categories").EnumerateArray().Select(c => c.GetString()));
        var jobs = queue.GetProperty("jobs").EnumerateArray().ToArray();
        Assert.Equal(ids, jobs.Select(j => j.GetProperty("id").GetString()));
        Assert.All(jobs, j =>
        {
            Assert.Equal("Queued", j.GetProperty("status").GetString());
            Assert.Equal("tv", j.GetProperty("category").GetString());
            Assert.True(j.GetProperty("hasPassword").GetBoolean());
            Assert.Equal(0, j.GetProperty("priority").GetInt32());
        });

        // Force the second ahead of the first; pause the first and resume it.
        Assert.Equal(HttpStatusCode.NoContent, (await ui.PostAsync($"/ui/api/jobs/{ids[1]}/priority", new { priority = 2 }, ct)).StatusCode);
        await AssertRefusedAsync(await ui.PostAsync($"/ui/api/jobs/{ids[1]}/priority", new { priority = 3 }, ct), HttpStatusCode.BadRequest, "priority must be", ct);
        Assert.Equal(HttpStatusCode.NoContent, (await ui.PostAsync($"/ui/api/jobs/{ids[0]}/pause", new { }, ct)).StatusCode);
        jobs = (await GetAsync(ui, "/ui/api/queue", ct)).GetProperty("jobs").EnumerateArray().ToArray();
        Assert.Equal([ids[1], ids[0]], jobs.Select(j => j.GetProperty("id").GetString()));
        Assert.Equal("Paused", jobs[1].GetProperty("status").GetString());
        await AssertRefusedAsync(await ui.PostAsync($"/ui/api/jobs/{ids[1]}/resume", new { }, ct), HttpStatusCode.Conflict, "not paused", ct);
        Assert.Equal(HttpStatusCode.NoContent, (await ui.PostAsync($"/ui/api/jobs/{ids[0]}/resume", new { }, ct)).StatusCode);

        Assert.False((await ReadOkAsync(await ui.PostAsync("/ui/api/queue/resume", new { }, ct), ct)).GetProperty("paused").GetBoolean());
        foreach (var id in ids)
            Assert.Equal("Completed", (await ui.WaitForHistoryAsync(id, ct)).GetProperty("status").GetString());
        Assert.Empty((await GetAsync(ui, "/ui/api/queue", ct)).GetProperty("jobs").EnumerateArray());

        // Paging, newest first, search and the status filter.
        var page = await GetAsync(ui, "/ui/api/history?page=2&pageSize=1", ct);
        Assert.Equal(2, page.GetProperty("total").GetInt32());
        var older = Assert.Single(page.GetProperty("jobs").EnumerateArray());
        Assert.Equal(ids[1], older.GetProperty("id").GetString());
        Assert.Equal("/content/tv/Second", older.GetProperty("contentPath").GetString());
        Assert.Equal("/mnt/nzbdav/completed/tv/Second", older.GetProperty("storagePath").GetString());
        var found = await GetAsync(ui, "/ui/api/history?search=FIRS", ct);
        Assert.Equal(ids[0], Assert.Single(found.GetProperty("jobs").EnumerateArray()).GetProperty("id").GetString());
        Assert.Equal(0, (await GetAsync(ui, "/ui/api/history?status=failed", ct)).GetProperty("total").GetInt32());
        Assert.Equal(0, (await GetAsync(ui, "/ui/api/history?search=50%25_off", ct)).GetProperty("total").GetInt32());
        using (var bad = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/history?status=lost"), ct))
            await AssertRefusedAsync(bad, HttpStatusCode.BadRequest, "not a history filter", ct);

        // The stored NZB comes back byte for byte under the job's name.
        using var nzb = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, $"/ui/api/jobs/{ids[0]}/nzb"), ct);
        Assert.Equal(HttpStatusCode.OK, nzb.StatusCode);
        Assert.Equal("First.nzb", nzb.Content.Headers.ContentDisposition?.FileNameStar ?? nzb.Content.Headers.ContentDisposition?.FileName);
        Assert.Equal(first, await nzb.Content.ReadAsByteArrayAsync(ct));
    }

    [Fact]
    public async Task Files_that_are_not_nzbs_are_refused_at_once_with_the_parsers_reason_and_nothing_is_queued_or_kept()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        var nntp = provider.Server;
        var good = Nzb(nntp, "good.mkv", "Good");
        await using var server = await TestServer.StartAsync(data.Path, nntp.Port, holdQueue: true, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password);
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Password, ct);

        byte[] png = [0x89, (byte)'P', (byte)'N', (byte)'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, (byte)'I', (byte)'H', (byte)'D', (byte)'R'];
        var html = "<!DOCTYPE html>\n<html><head><title>Not found</title></head><body><p>Gone</p></body></html>\n"u8.ToArray();
        var xhtml = "<html><body><p>an indexer's error page</p></body></html>"u8.ToArray();
        var answer = await ReadOkAsync(await UploadAsync(ui,
            [("notes.txt", "remember to buy milk\n"u8.ToArray()), ("cover.png", png), ("page.nzb", html), ("error.nzb", xhtml), ("empty.nzb", []), ("Good.nzb", good)], ct), ct);

        Assert.Equal("Good.nzb", Assert.Single(answer.GetProperty("added").EnumerateArray()).GetProperty("file").GetString());
        var refused = answer.GetProperty("refused").EnumerateArray().ToDictionary(r => r.GetProperty("file").GetString()!, r => r.GetProperty("error").GetString()!);
        Assert.Equal(["notes.txt", "cover.png", "page.nzb", "error.nzb", "empty.nzb"], refused.Keys);
        Assert.StartsWith("not an NZB (line 1: not well-formed XML: ", refused["notes.txt"], StringComparison.Ordinal);
        Assert.StartsWith("not an NZB (", refused["cover.png"], StringComparison.Ordinal);
        Assert.StartsWith("not an NZB (", refused["page.nzb"], StringComparison.Ordinal);
        Assert.Equal("not an NZB (line 1: Root element is <html>, expected <nzb>)", refused["error.nzb"]);
        Assert.Equal("The file is empty.", refused["empty.nzb"]);

        // Only the good one is queued; the refused files left nothing in the queue or the history.
        var queue = await GetAsync(ui, "/ui/api/queue", ct);
        Assert.Equal("Good", Assert.Single(queue.GetProperty("jobs").EnumerateArray()).GetProperty("name").GetString());
        Assert.Equal(0, (await GetAsync(ui, "/ui/api/history", ct)).GetProperty("total").GetInt32());

        // A URL that answers something other than an NZB is refused the same way.
        await using var web = new LoopbackHttpServer();
        web.Serve("/get/page", 200, html, "page.nzb");
        var byUrl = await ReadOkAsync(await ui.PostAsync("/ui/api/queue/url", new { url = web.Url("/get/page").ToString() }, ct), ct);
        Assert.Empty(byUrl.GetProperty("added").EnumerateArray());
        Assert.StartsWith("not an NZB (", Assert.Single(byUrl.GetProperty("refused").EnumerateArray()).GetProperty("error").GetString(), StringComparison.Ordinal);
        Assert.Single((await GetAsync(ui, "/ui/api/queue", ct)).GetProperty("jobs").EnumerateArray());
        Assert.Equal(0, (await GetAsync(ui, "/ui/api/history", ct)).GetProperty("total").GetInt32());
    }

    [Fact]
    public async Task A_failed_job_is_retried_and_history_entries_are_removed_with_or_without_their_files()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        var nntp = provider.Server;
        var gone = nntp.Store.AddFile("gone.mkv", new byte[5000], 1000);
        nntp.Store.SetMissing(gone.Articles[0], true);
        var goneNzb = Write(nntp, gone, "Gone");
        var kept = Nzb(nntp, "kept.mkv", "Kept");
        await using var server = await TestServer.StartAsync(data.Path, nntp.Port, holdQueue: false, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password);
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Password, ct);

        var goneId = await AddOneAsync(ui, "Gone.nzb", goneNzb, ct);
        var failed = await ui.WaitForHistoryAsync(goneId, ct);
        Assert.Equal("Failed", failed.GetProperty("status").GetString());
        Assert.Contains("missing on every provider", failed.GetProperty("failMessage").GetString(), StringComparison.Ordinal);
        Assert.True(failed.GetProperty("canRetry").GetBoolean());
        Assert.Equal(JsonValueKind.Null, failed.GetProperty("contentPath").ValueKind);
        Assert.Equal(1, (await GetAsync(ui, "/ui/api/history?status=failed", ct)).GetProperty("total").GetInt32());

        // The article is back (a provider caught up): retry ingests the stored NZB again.
        nntp.Store.SetMissing(gone.Articles[0], false);
        Assert.Equal(goneId, (await ReadOkAsync(await ui.PostAsync($"/ui/api/jobs/{goneId}/retry", new { }, ct), ct)).GetProperty("id").GetString());
        Assert.Equal("Completed", (await ui.WaitForHistoryAsync(goneId, ct)).GetProperty("status").GetString());
        await AssertRefusedAsync(await ui.PostAsync($"/ui/api/jobs/{goneId}/retry", new { }, ct), HttpStatusCode.Conflict, "not found in failed history", ct);

        // An NZB that can never parse (added by Sonarr, whose failed entry makes it blocklist) is not
        // offered a retry, and a retry asked for anyway is refused.
        var brokenId = (await server.AddFileAsync("<nzb><file"u8.ToArray(), "name", "Broken.nzb", "tv", ct)).GetProperty("nzo_ids")[0].GetString()!;
        var broken = await ui.WaitForHistoryAsync(brokenId, ct);
        Assert.StartsWith("Invalid NZB: ", broken.GetProperty("failMessage").GetString(), StringComparison.Ordinal);
        Assert.False(broken.GetProperty("canRetry").GetBoolean());
        await AssertRefusedAsync(await ui.PostAsync($"/ui/api/jobs/{brokenId}/retry", new { }, ct), HttpStatusCode.Conflict, "Invalid NZB", ct);

        // Removing the entry keeps the files: WebDAV still serves them and the SAB history agrees.
        var keptId = await AddOneAsync(ui, "Kept.nzb", kept, ct);
        Assert.Equal("Completed", (await ui.WaitForHistoryAsync(keptId, ct)).GetProperty("status").GetString());
        Assert.Equal(HttpStatusCode.NoContent, (await ui.PostAsync($"/ui/api/jobs/{keptId}/delete", new { deleteFiles = false }, ct)).StatusCode);
        var history = await GetAsync(ui, "/ui/api/history", ct);
        Assert.DoesNotContain(history.GetProperty("jobs").EnumerateArray(), j => j.GetProperty("id").GetString() == keptId);
        Assert.DoesNotContain(SabHistoryIds(await server.GetAsync("mode=history&apikey=" + TestServer.ApiKey, ct)), id => id == keptId);
        var listing = await GetAsync(ui, "/ui/api/files?path=/content/default/Kept", ct);
        Assert.Equal("kept.mkv", Assert.Single(listing.GetProperty("entries").EnumerateArray()).GetProperty("name").GetString());
        await AssertRefusedAsync(await ui.PostAsync($"/ui/api/jobs/{keptId}/delete", new { deleteFiles = false }, ct), HttpStatusCode.NotFound, "no such job", ct);

        // With its files: the job and its folder are gone.
        Assert.Equal(HttpStatusCode.NoContent, (await ui.PostAsync($"/ui/api/jobs/{goneId}/delete", new { deleteFiles = true }, ct)).StatusCode);
        using (var missing = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/files?path=/content/default/Gone"), ct))
            Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
        Assert.Equal(1, (await GetAsync(ui, "/ui/api/history", ct)).GetProperty("total").GetInt32());
    }

    [Fact]
    public async Task An_nzb_is_added_by_url_and_a_url_that_fails_says_why()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        var nntp = provider.Server;
        var nzb = Nzb(nntp, "fromurl.mkv", "From URL");
        await using var web = new LoopbackHttpServer();
        web.Serve("/get/1", 200, nzb, "Indexer.Release.nzb");
        await using var server = await TestServer.StartAsync(data.Path, nntp.Port, holdQueue: false, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password);
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Password, ct);

        var added = await ReadOkAsync(await ui.PostAsync("/ui/api/queue/url", new { url = web.Url("/get/1").ToString(), priority = 1 }, ct), ct);
        var one = Assert.Single(added.GetProperty("added").EnumerateArray());
        Assert.Equal("Indexer.Release.nzb", one.GetProperty("file").GetString());
        var slot = await ui.WaitForHistoryAsync(one.GetProperty("id").GetString()!, ct);
        Assert.Equal("Completed", slot.GetProperty("status").GetString());
        Assert.Equal("Indexer.Release", slot.GetProperty("name").GetString());

        await AssertRefusedAsync(await ui.PostAsync("/ui/api/queue/url", new { url = web.Url("/get/2").ToString() }, ct), HttpStatusCode.BadRequest, "HTTP 404", ct);
        await AssertRefusedAsync(await ui.PostAsync("/ui/api/queue/url", new { url = "ftp://example.org/a.nzb" }, ct), HttpStatusCode.BadRequest, "not an http:// or https:// URL", ct);
        await AssertRefusedAsync(await ui.PostAsync("/ui/api/queue/url", new { url = " " }, ct), HttpStatusCode.BadRequest, "Enter the NZB's URL", ct);
        await AssertRefusedAsync(await ui.PostAsync("/ui/api/queue/url", new { url = web.Url("/get/1").ToString(), name = "a/b" }, ct), HttpStatusCode.BadRequest, "without slashes", ct);
    }

    internal static byte[] Nzb(MockNntpServer nntp, string fileName, string title) => Post(nntp, fileName, title).Nzb;

    /// <summary>Posts a 12,000-byte file; answers an NZB of it alone and the posted file.</summary>
    internal static (byte[] Nzb, MockFile File) Post(MockNntpServer nntp, string fileName, string title)
    {
        var data = new byte[12_000];
        new Random(fileName.Length).NextBytes(data);
        var file = nntp.Store.AddFile(fileName, data, 4000);
        return (Write(nntp, file, title), file);
    }

    private static byte[] Write(MockNntpServer nntp, MockFile file, string title)
    {
        using var stream = new MemoryStream();
        MockNzbWriter.Write(stream, [file], title, nntp.StartedAt);
        return stream.ToArray();
    }

    internal static async Task<string> AddOneAsync(UiClient ui, string fileName, byte[] nzb, CancellationToken cancellationToken, params (string Key, string Value)[] fields)
    {
        var added = await ReadOkAsync(await UploadAsync(ui, [(fileName, nzb)], cancellationToken, fields), cancellationToken);
        return Assert.Single(added.GetProperty("added").EnumerateArray()).GetProperty("id").GetString()!;
    }

    private static MultipartFormDataContent Form(IReadOnlyList<(string Name, byte[] Bytes)> files, params (string Key, string Value)[] fields)
    {
        var form = new MultipartFormDataContent();
        foreach (var (name, bytes) in files)
        {
            var content = new ByteArrayContent(bytes);
            content.Headers.ContentType = new MediaTypeHeaderValue("application/x-nzb");
            form.Add(content, "files", name);
        }

        foreach (var (key, value) in fields)
            form.Add(new StringContent(value), key);
        return form;
    }

    private static Task<HttpResponseMessage> UploadAsync(UiClient ui, IReadOnlyList<(string Name, byte[] Bytes)> files, CancellationToken cancellationToken, params (string Key, string Value)[] fields)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/ui/api/queue/upload") { Content = Form(files, fields) };
        request.Headers.Add("X-CSRF-Token", ui.CsrfToken);
        return ui.SendAsync(request, cancellationToken);
    }

    private static IEnumerable<string?> SabHistoryIds(JsonElement answer) =>
        answer.GetProperty("history").GetProperty("slots").EnumerateArray().Select(s => s.GetProperty("nzo_id").GetString());

    internal static Task<JsonElement> GetAsync(UiClient ui, string path, CancellationToken cancellationToken) =>
        ui.GetJsonAsync(path, cancellationToken);

    private static async Task<JsonElement> ReadOkAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        using (response)
        {
            var body = await response.Content.ReadAsStringAsync(cancellationToken);
            Assert.True(response.StatusCode == HttpStatusCode.OK, $"{response.RequestMessage?.RequestUri} answered {(int)response.StatusCode}: {body}");
            return JsonDocument.Parse(body).RootElement.Clone();
        }
    }

    internal static async Task AssertRefusedAsync(HttpResponseMessage response, HttpStatusCode status, string reason, CancellationToken cancellationToken)
    {
        using (response)
        {
            var body = await response.Content.ReadAsStringAsync(cancellationToken);
            Assert.True(response.StatusCode == status, $"expected {(int)status}, got {(int)response.StatusCode}: {body}");
            Assert.Contains(reason, JsonDocument.Parse(body).RootElement.GetProperty("error").GetString(), StringComparison.Ordinal);
        }
    }
}

using System.Net;
using System.Text;
using Microsoft.Extensions.Logging;
using NzbDav.Server.Hosting;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.WebDav;
using NzbDav.Server.Tests.WebUi;
using NzbDav.Server.WebUi;

namespace NzbDav.Server.Tests.Hosting;

/// <summary>
/// Malformed and oversized requests over real sockets: each gets the 4xx it deserves, the server logs
/// no 500 and no error, and it goes on serving. docs/reliability.md §6 has the same table.
/// </summary>
public sealed class HostileRequestTests
{
    private const int MaxNzbBytes = 1024 * 1024;
    private const string File = "/content/tv/Show/Show.S01E01.mkv";
    private const long FileSize = 1_000_000;
    private const string UiPassword = "a long enough password";

    private static readonly string Auth = "Authorization: " + DavTestServer.BasicHeader(DavTestServer.User, DavTestServer.Password) + "\r\n";

    /// <summary>The table: name, the bytes sent, the status expected (0: closed without an answer, nothing left to answer).</summary>
    private static IEnumerable<(string Name, byte[] Request, int Expected, bool HalfClose)> Cases()
    {
        const string api = "/api?mode=addfile&apikey=" + DavTestServer.ApiKey;
        const string multipart = "Content-Type: multipart/form-data; boundary=zzz\r\n";
        yield return ("garbage request line", Ascii("HELLO\r\n\r\n"), 400, false);
        yield return ("space in the target", Ascii("GET /a b HTTP/1.1\r\nHost: x\r\n\r\n"), 400, false);
        yield return ("HTTP/1.1 without Host", Ascii("GET / HTTP/1.1\r\n" + Auth + "\r\n"), 400, false);
        yield return ("TLS ClientHello on plain HTTP", Convert.FromHexString("160301002a0100002603035555555555555555555555555555555555555555555555555555555555555555000002002f0100"), 400, false);
        yield return ("request line of 9 KiB", Request("GET", "/" + new string('a', 9 * 1024)), 414, false);
        yield return ("header of 40 KiB", Request("GET", "/", "X-Big: " + new string('a', 40 * 1024) + "\r\n"), 431, false);
        yield return ("200 header fields", Request("GET", "/", string.Concat(Enumerable.Range(0, 200).Select(i => $"X-{i}: a\r\n"))), 431, false);
        yield return ("header line without a colon", Request("GET", "/", "Garbage\r\n"), 400, false);
        yield return ("obsolete line folding", Request("GET", "/", "X-A: a\r\n b\r\n"), 400, false);
        yield return ("Content-Length: abc", Request("PUT", "/nzbs/a.nzb", "Content-Length: abc\r\n"), 400, false);
        yield return ("Content-Length: -1", Request("PUT", "/nzbs/a.nzb", "Content-Length: -1\r\n"), 400, false);
        yield return ("two different Content-Lengths", Request("PUT", "/nzbs/a.nzb", "Content-Length: 1\r\nContent-Length: 2\r\n", "ab"), 400, false);
        yield return ("Transfer-Encoding: gzip", Request("PUT", "/nzbs/a.nzb", "Transfer-Encoding: gzip\r\n", "xx"), 400, false);
        yield return ("bad chunk size", Request("PUT", "/nzbs/a.nzb", "Transfer-Encoding: chunked\r\n", "zz\r\nabc\r\n0\r\n\r\n"), 400, false);
        yield return ("chunked body cut off (client leaves)", Request("PROPFIND", "/", "Depth: 0\r\nTransfer-Encoding: chunked\r\n", "10\r\nabc"), 0, true);
        yield return ("Content-Length body cut off (client leaves)", Request("PUT", "/nzbs/a.nzb", "Content-Length: 100\r\n", "<nzb"), 0, true);
        yield return ("PUT of 2 MiB (limit 1 MiB)", Request("PUT", "/nzbs/a.nzb", "Content-Length: 2097152\r\n", new string('x', 2 * MaxNzbBytes)), 413, false);
        yield return ("PUT chunked beyond the limit", Request("PUT", "/nzbs/a.nzb", "Transfer-Encoding: chunked\r\n", Chunked(new string('x', MaxNzbBytes + 4096))), 413, false);
        yield return ("PUT claiming 1 TB", Request("PUT", "/nzbs/a.nzb", "Content-Length: 1000000000000\r\n"), 413, false);
        yield return ("PUT without a length", Request("PUT", "/nzbs/a.nzb"), 411, false);
        yield return ("PROPFIND malformed XML", Request("PROPFIND", "/", "Depth: 0\r\nContent-Length: 5\r\n", "<a><b"), 400, false);
        yield return ("PROPFIND not UTF-8", Request("PROPFIND", "/", "Depth: 0\r\nContent-Length: 4\r\n").Concat(new byte[] { 0xFF, 0xFE, 0xFD, 0xFC }).ToArray(), 400, false);
        yield return ("PROPFIND with a DTD", Request("PROPFIND", "/", "Depth: 0\r\n", "<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY a \"aa\">]><a/>", length: true), 400, false);
        yield return ("PROPFIND body of 100 KB", Request("PROPFIND", "/", "Depth: 0\r\nContent-Length: 100000\r\n", new string(' ', 100_000)), 413, false);
        yield return ("PROPFIND Depth: 2", Request("PROPFIND", "/", "Depth: 2\r\nContent-Length: 0\r\n"), 400, false);
        yield return ("PROPFIND Depth: garbage", Request("PROPFIND", "/", "Depth: one\r\nContent-Length: 0\r\n"), 400, false);
        yield return ("path /../", Request("GET", "/content/../../etc/passwd"), 400, false);
        yield return ("path %2e%2e", Request("GET", "/content/%2e%2e/%2E%2E/etc/passwd"), 400, false);
        yield return ("path %00", Request("GET", "/content/%00"), 400, false);
        yield return ("raw NUL in the target", Ascii("GET /content/\0 HTTP/1.1\r\nHost: x\r\n" + Auth + "\r\n"), 400, false);
        yield return ("invalid percent-encoding", Request("GET", "/content/%zz"), 400, false);
        yield return ("invalid UTF-8 (%ff%fe)", Request("GET", "/content/%ff%fe"), 400, false);
        yield return ("raw byte 0xFF in the target", [.. Ascii("GET /content/"), 0xFF, .. Ascii(" HTTP/1.1\r\nHost: x\r\n" + Auth + "Connection: close\r\n\r\n")], 400, false);
        yield return ("absolute-form naming another host", Request("GET", "http://elsewhere/x"), 400, false);
        yield return ("unknown method", Request("FOO", "/"), 405, false);
        yield return ("TRACE", Request("TRACE", "/"), 405, false);
        yield return ("CONNECT", Request("CONNECT", "elsewhere:443"), 400, false);
        yield return ("no credentials", Request("GET", "/content/", auth: false), 401, false);
        yield return ("credentials not base64", Request("GET", "/content/", "Authorization: Basic !!!!\r\n", auth: false), 401, false);
        yield return ("credentials without a colon", Request("GET", "/content/", "Authorization: Basic YWRtaW4=\r\n", auth: false), 401, false);
        yield return ("Range: bytes=garbage (ignored)", Request("HEAD", File, "Range: bytes=garbage\r\n"), 200, false);
        yield return ("Range beyond the end", Request("HEAD", File, "Range: bytes=5000000-\r\n"), 416, false);
        yield return ("addfile: boundary never comes", Request("POST", api, multipart + "Content-Length: 20\r\n", "garbagegarbagegarbag", auth: false), 400, false);
        yield return ("addfile: no boundary", Request("POST", api, "Content-Type: multipart/form-data\r\nContent-Length: 20\r\n", "garbagegarbagegarbag", auth: false), 400, false);
        yield return ("addfile: boundary of 200 characters", Request("POST", api, "Content-Type: multipart/form-data; boundary=" + new string('b', 200) + "\r\nContent-Length: 20\r\n", "garbagegarbagegarbag", auth: false), 400, false);
        yield return ("addfile: part header not a header", Request("POST", api, multipart + "Content-Length: 29\r\n", "--zzz\r\nbroken\r\n\r\nx\r\n--zzz--\r\n", auth: false), 400, false);
        yield return ("UI login with a multipart body that is not one", Request("POST", "/ui/api/login", multipart + "Content-Length: 20\r\n", "garbagegarbagegarbag", auth: false), 400, false);
        yield return ("UI login with a form that breaks off", Request("POST", "/ui/api/login", "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 50\r\n", "a=%zz&b", auth: false), 0, true);
        yield return ("addfile: 3 MiB claimed (limit 1 MiB + form)", Request("POST", api, multipart + "Content-Length: 3145728\r\n", "--zzz", auth: false), 413, false);
        yield return ("addfile: chunked beyond the limit", Request("POST", api, multipart + "Transfer-Encoding: chunked\r\n",
            Chunked("--zzz\r\nContent-Disposition: form-data; name=\"name\"; filename=\"a.nzb\"\r\n\r\n" + new string('x', 3 * MaxNzbBytes) + "\r\n--zzz--\r\n"), auth: false), 413, false);
    }

    [Fact]
    public async Task Every_malformed_or_oversized_request_gets_its_4xx_and_the_server_keeps_serving()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct, true,
            "--NzbDav:MaxNzbBytes=" + MaxNzbBytes, "--Server:Limits:MaxRequestBodySize=65536");
        await server.SeedCompletedJobAsync("tv", "Show", [("Show.S01E01.mkv", FileSize)], ct);

        var failures = new List<string>();
        foreach (var (name, request, expected, halfClose) in Cases())
        {
            var answer = await RawHttp.SendAsync(server.Address, request, ct, halfClose);
            if (answer.Status != expected)
                failures.Add($"{name}: expected {expected}, got {answer.Status} ({answer.Head.Split("\r\n")[0]})");
        }

        // After all of that, an ordinary request still works.
        using (var response = await server.Http.GetAsync(File, ct))
        {
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Equal(FileSize, (await response.Content.ReadAsByteArrayAsync(ct)).Length);
        }

        Assert.True(failures.Count == 0, string.Join("\n", failures) + "\nlogged:\n" + string.Join("\n", server.Logs.Problems.Select(p => $"{p.Level} {p.Category}: {p.Message} {p.Exception}")));
        AssertNoServerFault(server.Logs);
    }

    [Fact]
    public async Task A_request_that_sends_both_lengths_is_read_as_chunked_and_its_connection_closed()
    {
        // RFC 9112 §6.1: Transfer-Encoding wins and the connection must close, so nothing pipelined
        // behind the body (a smuggled request) is ever read.
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct);
        var request = Ascii("PROPFIND / HTTP/1.1\r\nHost: x\r\n" + Auth + "Depth: 0\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
            + "DELETE /nzbs/a.nzb HTTP/1.1\r\nHost: x\r\n" + Auth + "\r\n");
        using var socket = new System.Net.Sockets.Socket(System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Tcp);
        await socket.ConnectAsync(server.Address.Host, server.Address.Port, ct);
        await socket.SendAsync(request, System.Net.Sockets.SocketFlags.None, ct);

        var answer = await RawHttp.ReadHeadAsync(socket, ct);
        Assert.Equal(207, answer.Status);
        Assert.Contains("Connection: close", answer.Head, StringComparison.OrdinalIgnoreCase);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(ct);
        deadline.CancelAfter(TimeSpan.FromSeconds(10));
        var rest = new MemoryStream();
        var buffer = new byte[8192];
        int read;
        while ((read = await socket.ReceiveAsync(buffer, System.Net.Sockets.SocketFlags.None, deadline.Token)) > 0)
            rest.Write(buffer, 0, read);
        Assert.DoesNotContain("HTTP/1.1 ", Encoding.Latin1.GetString(rest.ToArray()), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_body_that_stalls_is_cut_with_408_after_the_grace_period()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct, true, "--Server:Limits:MinRequestBodyDataRateGracePeriod=00:00:02");

        // 100 of 1,000 bytes, then nothing: below 240 bytes/s once the 2 s grace has passed.
        var answer = await RawHttp.SendAsync(server.Address, Request("PUT", "/nzbs/slow.nzb", "Content-Length: 1000\r\n", new string('x', 100)), ct);

        Assert.Equal(408, answer.Status);
        AssertNoServerFault(server.Logs);
    }

    [Fact]
    public async Task Nzb_uploads_beyond_the_limit_get_413_through_every_door()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct, true, "--NzbDav:MaxNzbBytes=" + MaxNzbBytes,
            "--Server:Limits:MaxRequestBodySize=65536", "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + UiPassword);
        var tooLarge = new byte[MaxNzbBytes + 1];

        // SABnzbd addfile: the file alone is over the limit, the request within the form's room.
        using (var form = new MultipartFormDataContent())
        {
            form.Add(new ByteArrayContent(tooLarge), "name", "big.nzb");
            using var response = await server.Anonymous.PostAsync("/api?mode=addfile&apikey=" + DavTestServer.ApiKey, form, ct);
            Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
            Assert.Contains("\"status\":false", await response.Content.ReadAsStringAsync(ct), StringComparison.Ordinal);
        }

        // The same request far beyond the form's room: refused before its body is read, still 413 with
        // SAB's body. A client that sends the body regardless may see the connection close instead;
        // one that asks first (Expect: 100-continue, as curl does beyond 1 MiB) gets the answer.
        using (var request = new HttpRequestMessage(HttpMethod.Post, "/api?mode=addfile&apikey=" + DavTestServer.ApiKey))
        {
            request.Content = new MultipartFormDataContent { { new ByteArrayContent(new byte[3 * MaxNzbBytes]), "name", "huge.nzb" } };
            request.Headers.ExpectContinue = true;
            using var response = await server.Anonymous.SendAsync(request, ct);
            Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
            Assert.Contains("\"status\":false", await response.Content.ReadAsStringAsync(ct), StringComparison.Ordinal);
        }

        // WebDAV PUT.
        using (var put = await server.Http.PutAsync("/nzbs/big.nzb", new ByteArrayContent(tooLarge), ct))
            Assert.Equal(HttpStatusCode.RequestEntityTooLarge, put.StatusCode);

        // Within the limit, every door still takes it (an NZB that is not valid fails later, in the queue).
        using (var form = new MultipartFormDataContent())
        {
            form.Add(new ByteArrayContent("<nzb/>"u8.ToArray()), "name", "small.nzb");
            using var response = await server.Anonymous.PostAsync("/api?mode=addfile&apikey=" + DavTestServer.ApiKey, form, ct);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Contains("\"status\":true", await response.Content.ReadAsStringAsync(ct), StringComparison.Ordinal);
        }

        // The UI's upload: several NZBs in one request must together fit the same limit.
        using var ui = new UiClient(server.Address);
        await ui.LoginAsync("admin", UiPassword, ct);
        using (var upload = new HttpRequestMessage(HttpMethod.Post, "/ui/api/queue/upload"))
        {
            var form = new MultipartFormDataContent();
            foreach (var name in new[] { "a", "b", "c", "d", "e", "f" })
                form.Add(new ByteArrayContent(new byte[MaxNzbBytes / 2]), "files", name + ".nzb");
            upload.Content = form;
            upload.Headers.Add(UiAuthentication.CsrfHeader, ui.CsrfToken);
            upload.Headers.ExpectContinue = true;
            using var response = await ui.SendAsync(upload, ct);
            Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        }

        // Far beyond Server:Limits:MaxRequestBodySize (64 KiB here) but within the upload's own limit: taken.
        using (var upload = new HttpRequestMessage(HttpMethod.Post, "/ui/api/queue/upload"))
        {
            upload.Content = new MultipartFormDataContent
            {
                { new ByteArrayContent(new byte[700 * 1024]), "files", "a.nzb" },
                { new ByteArrayContent(new byte[700 * 1024]), "files", "b.nzb" },
            };
            upload.Headers.Add(UiAuthentication.CsrfHeader, ui.CsrfToken);
            using var response = await ui.SendAsync(upload, ct);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        }

        // Any other body beyond Server:Limits:MaxRequestBodySize (64 KiB here): the UI's JSON.
        using (var big = new HttpRequestMessage(HttpMethod.Post, "/ui/api/account/password"))
        {
            big.Content = System.Net.Http.Json.JsonContent.Create(new { current = UiPassword, @new = new string('a', 100_000) });
            await big.Content.LoadIntoBufferAsync(ct);
            big.Headers.Add(UiAuthentication.CsrfHeader, ui.CsrfToken);
            big.Headers.ExpectContinue = true;
            using var response = await ui.SendAsync(big, ct);
            Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        }

        // A wrong API key stays SABnzbd's 200 with status:false: that is how Sonarr recognises it.
        using (var wrongKey = await server.Anonymous.GetAsync("/api?mode=queue&apikey=wrong", ct))
        {
            Assert.Equal(HttpStatusCode.OK, wrongKey.StatusCode);
            Assert.Contains("API Key Incorrect", await wrongKey.Content.ReadAsStringAsync(ct), StringComparison.Ordinal);
        }

        AssertNoServerFault(server.Logs);
    }

    [Fact]
    public async Task Invalid_limits_stop_the_start_and_name_the_setting()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        var error = await Assert.ThrowsAnyAsync<Exception>(async () =>
        {
            await using var server = await DavTestServer.StartAsync(temp.Path, ct, true, "--Server:Limits:RequestHeadersTimeout=00:00:00");
        });
        Assert.Contains("Server:Limits:RequestHeadersTimeout", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_connection_limit_beyond_the_open_file_limit_is_warned_about_at_start()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        var allowed = OpenFileLimitCheck.Read("/proc/self/limits");
        Assert.True(allowed > 0, "this test runs on Linux, where /proc/self/limits names the open-file limit");

        await using (var server = await DavTestServer.StartAsync(temp.Path, ct, true, "--Server:Limits:MaxConcurrentConnections=" + (allowed!.Value * 2)))
            Assert.Contains(server.Logs.Problems, p => p.Category.EndsWith(nameof(OpenFileLimitCheck), StringComparison.Ordinal) && p.Message.Contains("--ulimit nofile", StringComparison.Ordinal));

        await using (var server = await DavTestServer.StartAsync(temp.Path, ct, true, "--Server:Limits:MaxConcurrentConnections=" + (allowed.Value - OpenFileLimitCheck.Headroom)))
            Assert.DoesNotContain(server.Logs.Problems, p => p.Category.EndsWith(nameof(OpenFileLimitCheck), StringComparison.Ordinal));
    }

    /// <summary>No 500 recorded by the host and nothing logged as an error: every refusal was the client's doing.</summary>
    internal static void AssertNoServerFault(LogCapture logs)
    {
        var statuses = logs.Entries.SelectMany(e => e).Where(v => v.Key == "StatusCode").Select(v => Convert.ToInt32(v.Value, System.Globalization.CultureInfo.InvariantCulture)).ToList();
        Assert.DoesNotContain(statuses, s => s >= 500 && s != 505);
        var errors = logs.Problems.Where(p => p.Level >= LogLevel.Error).Select(p => $"{p.Category}: {p.Message} {p.Exception?.GetType().Name}").ToList();
        Assert.True(errors.Count == 0, string.Join("\n", errors));
    }

    private static byte[] Ascii(string text) => Encoding.Latin1.GetBytes(text);

    /// <param name="length">Adds the body's own Content-Length (the other cases state theirs on purpose, wrong ones included).</param>
    private static byte[] Request(string method, string target, string headers = "", string body = "", bool auth = true, bool length = false) =>
        Ascii($"{method} {target} HTTP/1.1\r\nHost: x\r\n{(auth ? Auth : "")}{headers}{(length ? $"Content-Length: {Encoding.Latin1.GetByteCount(body)}\r\n" : "")}Connection: close\r\n\r\n{body}");

    private static string Chunked(string body)
    {
        var builder = new StringBuilder();
        for (var i = 0; i < body.Length; i += 16 * 1024)
        {
            var chunk = body.Substring(i, Math.Min(16 * 1024, body.Length - i));
            builder.Append(chunk.Length.ToString("x", System.Globalization.CultureInfo.InvariantCulture)).Append("\r\n").Append(chunk).Append("\r\n");
        }

        return builder.Append("0\r\n\r\n").ToString();
    }
}

using System.Xml.Linq;

namespace NzbDav.Server.Tests.WebDav;

public sealed class MethodTests(DavServerFixture dav) : IClassFixture<DavServerFixture>
{
    [Fact]
    public async Task Options_announces_class_1_and_the_allowed_methods()
    {
        var ct = TestContext.Current.CancellationToken;
        var server = dav.Server;

        using var response = await DavHttp.SendAsync(server.Http, "OPTIONS", "/content/", ct);

        Assert.Equal(200, (int)response.StatusCode);
        Assert.Equal("1", DavHttp.RawHeader(response, "DAV"));
        Assert.Equal("OPTIONS, PROPFIND, GET, HEAD, PUT, DELETE", DavHttp.RawHeader(response, "Allow"));
        Assert.Equal("DAV", DavHttp.RawHeader(response, "MS-Author-Via"));
    }

    [Theory]
    [InlineData("MKCOL", "/content/tv/new")]
    [InlineData("MOVE", "/content/")]
    [InlineData("COPY", "/nzbs/")]
    [InlineData("PROPPATCH", "/")]
    [InlineData("LOCK", "/content/x")]
    [InlineData("UNLOCK", "/")]
    [InlineData("SEARCH", "/")]
    [InlineData("PATCH", "/.ids/")]
    public async Task Unsupported_methods_get_405_with_a_dav_error_body(string method, string path)
    {
        var ct = TestContext.Current.CancellationToken;
        var server = dav.Server;

        using var response = await DavHttp.SendAsync(server.Http, method, path, ct);

        Assert.Equal(405, (int)response.StatusCode);
        Assert.Equal("OPTIONS, PROPFIND, GET, HEAD, PUT, DELETE", DavHttp.RawHeader(response, "Allow"));
        var error = XDocument.Parse(await response.Content.ReadAsStringAsync(ct)).Root!;
        Assert.Equal(DavHttp.D + "error", error.Name);
    }

    [Theory]
    [InlineData("/content/../.ids/")]
    [InlineData("/content/%2e%2e/%2E%2E/etc/passwd")]
    [InlineData("/content/..%2f..%2fetc%2fpasswd")]
    [InlineData("/content/%2fetc")]
    [InlineData("/content/..%5c..%5cwindows")]
    [InlineData("/content/a%5cb")]
    [InlineData("/content/%00")]
    [InlineData("/content/%zz")]
    [InlineData("/content/%c0%ae%c0%ae/")]
    [InlineData("/content/%252e%252e/%252e%252e/etc")]
    [InlineData("/./content/")]
    public async Task Traversal_attempts_never_leave_the_tree(string target)
    {
        var ct = TestContext.Current.CancellationToken;
        var server = dav.Server;

        var propfind = await server.RawStatusAsync("PROPFIND", target, ct);
        var get = await server.RawStatusAsync("GET", target, ct);

        Assert.Contains(propfind, new[] { 400, 404 });
        Assert.Contains(get, new[] { 400, 404 });
    }
}

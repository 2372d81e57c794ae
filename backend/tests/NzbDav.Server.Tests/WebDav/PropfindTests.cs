using System.Globalization;
using System.Xml.Linq;
using NzbDav.Server.Tests.Data;
using static NzbDav.Server.Tests.WebDav.DavHttp;

namespace NzbDav.Server.Tests.WebDav;

public sealed class PropfindTests(DavServerFixture dav) : IClassFixture<DavServerFixture>
{
    [Fact]
    public async Task Depth_0_and_1_on_the_root_list_the_four_top_folders()
    {
        var ct = TestContext.Current.CancellationToken;
        var server = dav.Server;

        var self = await MultistatusAsync(server.Http, "/", "0", null, ct);
        var root = Assert.Single(self).Value;
        Assert.NotNull(OkProp(root, "resourcetype")!.Element(D + "collection"));

        var listing = await MultistatusAsync(server.Http, "/", "1", null, ct);
        Assert.Equal(["/", "/.ids/", "/completed/", "/content/", "/nzbs/"], listing.Keys.Order(StringComparer.Ordinal));
    }

    [Theory]
    [InlineData(null)]
    [InlineData("infinity")]
    public async Task Infinite_depth_is_refused_with_propfind_finite_depth(string? depth)
    {
        var ct = TestContext.Current.CancellationToken;
        var server = dav.Server;

        using var response = await PropfindAsync(server.Http, "/content/", depth, null, ct);

        Assert.Equal(403, (int)response.StatusCode);
        var error = XDocument.Parse(await response.Content.ReadAsStringAsync(ct)).Root!;
        Assert.Equal(D + "error", error.Name);
        Assert.NotNull(error.Element(D + "propfind-finite-depth"));
    }

    [Fact]
    public async Task Files_carry_every_property_with_encoded_hrefs()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct);
        var (_, files) = await server.SeedCompletedJobAsync("movies", "My Movie (2024)", [("My Movie (2024).mkv", 123_456), ("notes #1.nfo", 10)], ct);

        using (var raw = await PropfindAsync(server.Http, "/content/movies/My%20Movie%20%282024%29/", "1", null, ct))
        {
            var text = await raw.Content.ReadAsStringAsync(ct);
            Assert.Contains("<d:href>/content/movies/My%20Movie%20%282024%29/</d:href>", text);
            Assert.Contains("<d:href>/content/movies/My%20Movie%20%282024%29/notes%20%231.nfo</d:href>", text);
        }

        var listing = await MultistatusAsync(server.Http, "/content/movies/My Movie (2024)/", "1", null, ct);
        Assert.Equal(3, listing.Count);
        var folder = listing["/content/movies/My Movie (2024)/"];
        Assert.NotNull(OkProp(folder, "resourcetype")!.Element(D + "collection"));
        var mkv = listing["/content/movies/My Movie (2024)/My Movie (2024).mkv"];
        Assert.Equal("My Movie (2024).mkv", OkProp(mkv, "displayname")!.Value);
        Assert.Empty(OkProp(mkv, "resourcetype")!.Elements());
        Assert.Equal("123456", OkProp(mkv, "getcontentlength")!.Value);
        Assert.Equal("video/x-matroska", OkProp(mkv, "getcontenttype")!.Value);
        Assert.Equal("text/plain", OkProp(listing["/content/movies/My Movie (2024)/notes #1.nfo"], "getcontenttype")!.Value);
        Assert.Equal($"\"{files[0].Id:N}-{123_456:x}\"", OkProp(mkv, "getetag")!.Value);
        Assert.Equal("Sun, 01 Nov 2026 12:00:05 GMT", OkProp(mkv, "getlastmodified")!.Value);
        Assert.True(DateTimeOffset.TryParseExact(OkProp(mkv, "getlastmodified")!.Value, "R", CultureInfo.InvariantCulture, DateTimeStyles.None, out _));
        Assert.Equal("2026-11-01T12:00:05Z", OkProp(mkv, "creationdate")!.Value);
    }

    [Fact]
    public async Task Requested_unknown_properties_get_a_404_propstat_and_propname_lists_names()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct);
        await server.SeedCompletedJobAsync("tv", "Show", [("e1.mkv", 5)], ct);
        const string body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:x="urn:example"><d:prop><d:getcontentlength/><x:rating/><d:quota-used-bytes/></d:prop></d:propfind>
            """;

        var response = Assert.Single(await MultistatusAsync(server.Http, "/content/tv/Show/e1.mkv", "0", body, ct)).Value;

        Assert.Equal("5", OkProp(response, "getcontentlength")!.Value);
        Assert.Null(OkProp(response, "displayname"));
        var missing = response.Elements(D + "propstat").Single(p => p.Element(D + "status")!.Value == "HTTP/1.1 404 Not Found");
        Assert.Equal([XName.Get("rating", "urn:example"), D + "quota-used-bytes"], missing.Element(D + "prop")!.Elements().Select(e => e.Name));

        const string names = """<d:propfind xmlns:d="DAV:"><d:propname/></d:propfind>""";
        var named = Assert.Single(await MultistatusAsync(server.Http, "/content/tv/Show/e1.mkv", "0", names, ct)).Value;
        var prop = named.Element(D + "propstat")!.Element(D + "prop")!;
        Assert.Contains(prop.Elements(), e => e.Name == D + "getetag" && e.IsEmpty);
        Assert.All(prop.Elements(), e => Assert.True(e.IsEmpty));
    }

    [Theory]
    [InlineData("<d:propfind xmlns:d=\"DAV:\"><d:prop>")]
    [InlineData("<propfind/>")]
    [InlineData("<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><d:propfind xmlns:d=\"DAV:\">&e;</d:propfind>")]
    public async Task Bad_bodies_answer_400(string body)
    {
        var ct = TestContext.Current.CancellationToken;
        var server = dav.Server;

        using var response = await PropfindAsync(server.Http, "/", "1", body, ct);

        Assert.Equal(400, (int)response.StatusCode);
    }

    [Fact]
    public async Task Missing_paths_answer_404()
    {
        var ct = TestContext.Current.CancellationToken;
        var server = dav.Server;

        using var response = await PropfindAsync(server.Http, "/content/tv/nothing", "0", null, ct);

        Assert.Equal(404, (int)response.StatusCode);
    }
}

using NzbDav.Server.WebDav;

namespace NzbDav.Server.Tests.WebDav;

public sealed class DavPathTests
{
    [Theory]
    [InlineData("/", new string[0])]
    [InlineData("/content/tv/", new[] { "content", "tv" })]
    [InlineData("/content//tv", new[] { "content", "tv" })]
    [InlineData("/a%20b/c%25d", new[] { "a b", "c%d" })]
    [InlineData("/%E2%82%AC/caf%C3%A9", new[] { "€", "café" })]
    [InlineData("/%252e%252e", new[] { "%2e%2e" })]
    public void Decodes_each_segment_once(string raw, string[] expected)
    {
        Assert.Equal(expected, DavPath.ParseRaw(raw));
    }

    [Theory]
    [InlineData("")]
    [InlineData("content")]
    [InlineData("/..")]
    [InlineData("/a/./b")]
    [InlineData("/%2E%2e/x")]
    [InlineData("/a%2Fb")]
    [InlineData("/a%5Cb")]
    [InlineData("/a\\b")]
    [InlineData("/a%0Ab")]
    [InlineData("/a%")]
    [InlineData("/a%4")]
    [InlineData("/%C0%AE")]
    [InlineData("/%FF")]
    public void Refuses_unsafe_paths(string raw)
    {
        Assert.Null(DavPath.ParseRaw(raw));
    }
}

namespace NzbDav.Usenet.Tests.Nzb;

// Documented behaviour: the DTD is skipped, so any reference to a custom entity is an undeclared
// entity and the NZB is rejected with NzbFormatException; no file is ever read.
public sealed class NzbParserSecurityTests : IDisposable
{
    private readonly string _secretPath = Path.Combine(Path.GetTempPath(), $"nzbdav-xxe-{Guid.NewGuid():N}.txt");
    private readonly string _secret = $"SECRET-{Guid.NewGuid():N}";

    public NzbParserSecurityTests() => File.WriteAllText(_secretPath, _secret);

    public void Dispose() => File.Delete(_secretPath);

    private string SecretUri => new Uri(_secretPath).AbsoluteUri;

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task External_entity_in_content_is_rejected_without_reading_the_file(bool useAsync)
    {
        var xml = $"<?xml version=\"1.0\"?>\n<!DOCTYPE nzb [ <!ENTITY xxe SYSTEM \"{SecretUri}\"> ]>\n<nzb>"
            + NzbTestInput.File("a.bin", NzbTestInput.Segment(1, "&xxe;")) + "</nzb>";

        var error = await NzbTestInput.ParseFailsAsync(xml, useAsync);

        Assert.Contains("xxe", error.Message);
        Assert.DoesNotContain(_secret, error.ToString());
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task External_entity_in_attribute_is_rejected_without_reading_the_file(bool useAsync)
    {
        var xml = $"<?xml version=\"1.0\"?>\n<!DOCTYPE nzb [ <!ENTITY xxe SYSTEM \"{SecretUri}\"> ]>\n<nzb>"
            + NzbTestInput.File("&xxe;", NzbTestInput.Segment(1, "a@x")) + "</nzb>";

        var error = await NzbTestInput.ParseFailsAsync(xml, useAsync);

        Assert.DoesNotContain(_secret, error.ToString());
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Parameter_entity_in_ignored_dtd_reads_nothing(bool useAsync)
    {
        // Nothing references an entity, so the document parses; the DTD's file reference must not be followed.
        var xml = $"<?xml version=\"1.0\"?>\n<!DOCTYPE nzb [ <!ENTITY % file SYSTEM \"{SecretUri}\"> %file; ]>\n<nzb>"
            + NzbTestInput.File("a.bin", NzbTestInput.Segment(1, "a@x")) + "</nzb>";

        var document = await NzbTestInput.ParseAsync(xml, useAsync);

        Assert.DoesNotContain(_secret, NzbTestInput.Describe(document));
        Assert.Equal("a@x", document.Files[0].Segments.Span[0].MessageId);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task External_dtd_is_never_loaded(bool useAsync)
    {
        var dtdPath = Path.Combine(Path.GetTempPath(), $"nzbdav-dtd-{Guid.NewGuid():N}.dtd");
        await File.WriteAllTextAsync(dtdPath, $"<!ENTITY leak \"{_secret}\">", TestContext.Current.CancellationToken);
        try
        {
            var xml = $"<?xml version=\"1.0\"?>\n<!DOCTYPE nzb SYSTEM \"{new Uri(dtdPath).AbsoluteUri}\">\n<nzb>"
                + NzbTestInput.File("&leak;", NzbTestInput.Segment(1, "a@x")) + "</nzb>";

            var error = await NzbTestInput.ParseFailsAsync(xml, useAsync);

            Assert.Contains("leak", error.Message);
            Assert.DoesNotContain(_secret, error.ToString());
        }
        finally
        {
            File.Delete(dtdPath);
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Billion_laughs_is_rejected_without_expansion(bool useAsync)
    {
        var entities = "<!ENTITY lol0 \"lol\">" + string.Concat(Enumerable.Range(1, 9).Select(i =>
            $"<!ENTITY lol{i} \"{string.Concat(Enumerable.Repeat($"&lol{i - 1};", 10))}\">"));
        var xml = $"<?xml version=\"1.0\"?>\n<!DOCTYPE nzb [ {entities} ]>\n<nzb>"
            + NzbTestInput.File("&lol9;", NzbTestInput.Segment(1, "&lol9;")) + "</nzb>";

        var error = await NzbTestInput.ParseFailsAsync(xml, useAsync);

        Assert.Contains("lol9", error.Message);
        Assert.Equal(3, error.LineNumber);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Predefined_and_character_entities_still_work(bool useAsync)
    {
        var xml = "<nzb>" + NzbTestInput.File("&quot;R&amp;D &#x41;.mkv&quot;", NzbTestInput.Segment(1, "&#97;@x")) + "</nzb>";

        var document = await NzbTestInput.ParseAsync(xml, useAsync);

        Assert.Equal("R&D A.mkv", document.Files[0].FileName);
        Assert.Equal("a@x", document.Files[0].Segments.Span[0].MessageId);
    }
}

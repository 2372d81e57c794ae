using System.Text;
using NzbDav.Usenet.Nzb;

namespace NzbDav.Usenet.Tests.Nzb;

public sealed class NzbParserTests
{
    private const string Realistic = NzbTestInput.Prolog + """
        <nzb xmlns="http://www.newzbin.com/DTD/2003/nzb">
          <head>
            <meta type="name">Some.Show.S01E01.1080p.WEB.H264-GRP</meta>
            <meta type="category">TV &gt; HD</meta>
            <meta type="password">hunter2</meta>
            <meta type="PASSWORD">  second pass  </meta>
            <meta type="password">hunter2</meta>
            <meta type="password"></meta>
            <meta type="tag">scene</meta>
          </head>
          <file poster="Poster &lt;poster@example.com&gt;" date="1700000000" subject="[1/2] - &quot;Some.Show.S01E01.1080p.WEB.H264-GRP.mkv&quot; yEnc (1/3)">
            <groups>
              <group>alt.binaries.teevee</group>
              <group>alt.binaries.hdtv</group>
            </groups>
            <segments>
              <segment bytes="739811" number="1">part1of3.AbCdEf123@news.example.com</segment>
              <segment bytes="739812" number="2">part2of3.AbCdEf123@news.example.com</segment>
              <segment bytes="120000" number="3">part3of3.AbCdEf123@news.example.com</segment>
            </segments>
          </file>
          <file poster="Poster &lt;poster@example.com&gt;" date="1700000001" subject="[2/2] - &quot;Some.Show.S01E01.1080p.WEB.H264-GRP.par2&quot; yEnc (1/1)">
            <groups>
              <group>alt.binaries.teevee</group>
              <group>alt.binaries.hdtv</group>
            </groups>
            <segments>
              <segment bytes="5000" number="1">par2.XyZ@news.example.com</segment>
            </segments>
          </file>
        </nzb>
        """;

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Realistic_nzb_with_doctype_namespace_and_meta(bool useAsync)
    {
        var document = await NzbTestInput.ParseAsync(Realistic, useAsync);

        Assert.Equal("Some.Show.S01E01.1080p.WEB.H264-GRP", document.Meta.Name);
        Assert.Equal("TV > HD", document.Meta.Category);
        Assert.Equal(["hunter2", "second pass"], document.Meta.Passwords);
        Assert.Equal(7, document.Meta.All.Count);
        Assert.Contains(new KeyValuePair<string, string>("tag", "scene"), document.Meta.All);

        Assert.Equal(2, document.Files.Count);
        var video = document.Files[0];
        Assert.Equal("Some.Show.S01E01.1080p.WEB.H264-GRP.mkv", video.FileName);
        Assert.Equal("Poster <poster@example.com>", video.Poster);
        Assert.Equal(DateTimeOffset.FromUnixTimeSeconds(1700000000), video.PostedAt);
        Assert.Equal(["alt.binaries.teevee", "alt.binaries.hdtv"], video.Groups);
        Assert.Equal(739811 + 739812 + 120000, video.EncodedBytes);
        Assert.Empty(video.MissingSegmentNumbers);
        Assert.Equal(
            [new NzbSegment(1, 739811, "part1of3.AbCdEf123@news.example.com"),
             new NzbSegment(2, 739812, "part2of3.AbCdEf123@news.example.com"),
             new NzbSegment(3, 120000, "part3of3.AbCdEf123@news.example.com")],
            video.Segments.ToArray());

        Assert.Equal("Some.Show.S01E01.1080p.WEB.H264-GRP.par2", document.Files[1].FileName);
        Assert.Same(video.Groups, document.Files[1].Groups);
        Assert.Equal(video.EncodedBytes + 5000, document.EncodedBytes);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Out_of_order_and_duplicate_segments_are_sorted_and_the_first_duplicate_kept(bool useAsync)
    {
        var segments = string.Join('\n',
            NzbTestInput.Segment(3, "c@x", 30),
            NzbTestInput.Segment(1, "a-first@x", 10),
            NzbTestInput.Segment(2, "b-first@x", 20),
            NzbTestInput.Segment(2, "b-second@x", 21),
            NzbTestInput.Segment(1, "a-second@x", 11));
        var document = await NzbTestInput.ParseAsync(NzbTestInput.Document(NzbTestInput.File("f.bin", segments)), useAsync);

        var file = Assert.Single(document.Files);
        Assert.Equal(
            [new NzbSegment(1, 10, "a-first@x"), new NzbSegment(2, 20, "b-first@x"), new NzbSegment(3, 30, "c@x")],
            file.Segments.ToArray());
        Assert.Equal(60, file.EncodedBytes);
        Assert.Empty(file.MissingSegmentNumbers);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Gaps_in_segment_numbers_are_reported(bool useAsync)
    {
        var segments = string.Join('\n',
            NzbTestInput.Segment(7, "g@x"), NzbTestInput.Segment(2, "b@x"), NzbTestInput.Segment(5, "e@x"));
        var document = await NzbTestInput.ParseAsync(NzbTestInput.Document(NzbTestInput.File("f.bin", segments)), useAsync);

        var file = Assert.Single(document.Files);
        Assert.Equal([1, 3, 4, 6], file.MissingSegmentNumbers);
        Assert.Equal([1, 3, 4, 6], Enumerable.Range(0, file.MissingSegmentNumbers.Count).Select(i => file.MissingSegmentNumbers[i]));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Message_ids_are_trimmed_and_unbracketed(bool useAsync)
    {
        var segments = string.Join('\n',
            NzbTestInput.Segment(1, "&lt;a@x&gt;"),
            NzbTestInput.Segment(2, "\n    b@x   \n"),
            NzbTestInput.Segment(3, "<![CDATA[<c@x>]]>"),
            NzbTestInput.Segment(4, " &lt; d@x &gt; "));
        var document = await NzbTestInput.ParseAsync(NzbTestInput.Document(NzbTestInput.File("f.bin", segments)), useAsync);

        Assert.Equal(["a@x", "b@x", "c@x", "d@x"], document.Files[0].Segments.ToArray().Select(s => s.MessageId));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Namespace_may_be_missing_different_or_prefixed(bool useAsync)
    {
        var file = NzbTestInput.File("&quot;a.mkv&quot;", NzbTestInput.Segment(1, "a@x"));
        string[] documents =
        [
            $"<nzb>{file}</nzb>",
            $"<nzb xmlns=\"urn:something-else\">{file}</nzb>",
            "<n:nzb xmlns:n=\"http://www.newzbin.com/DTD/2003/nzb\"><n:file subject=\"&quot;a.mkv&quot;\">"
                + "<n:segments><n:segment number=\"1\" bytes=\"739811\">a@x</n:segment></n:segments></n:file></n:nzb>",
        ];

        foreach (var xml in documents)
        {
            var document = await NzbTestInput.ParseAsync(xml, useAsync);
            Assert.Equal("a.mkv", Assert.Single(document.Files).FileName);
            Assert.Equal("a@x", document.Files[0].Segments.Span[0].MessageId);
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Names_match_case_insensitively_and_attribute_order_does_not_matter(bool useAsync)
    {
        const string xml = "<NZB><Head><Meta Type=\"Name\">job</Meta></Head>"
            + "<File Subject=\"x.bin\" Date=\"5\" Poster=\"p\"><Segments>"
            + "<Segment Number=\"2\" Bytes=\"9\">b@x</Segment><SEGMENT BYTES=\"8\" NUMBER=\"1\">a@x</SEGMENT>"
            + "</Segments></File></NZB>";
        var document = await NzbTestInput.ParseAsync(xml, useAsync);

        Assert.Equal("job", document.Meta.Name);
        var file = Assert.Single(document.Files);
        Assert.Equal([new NzbSegment(1, 8, "a@x"), new NzbSegment(2, 9, "b@x")], file.Segments.ToArray());
        Assert.Equal("p", file.Poster);
        Assert.Equal(DateTimeOffset.FromUnixTimeSeconds(5), file.PostedAt);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Unicode_subjects_survive_utf8_and_declared_latin1(bool useAsync)
    {
        const string subject = "[1/1] - &quot;Café – Ünïcødé 日本語 🎬.mkv&quot; yEnc (1/1)";
        var utf8 = await NzbTestInput.ParseAsync(NzbTestInput.Document(NzbTestInput.File(subject, NzbTestInput.Segment(1, "a@x"))), useAsync);
        Assert.Equal("Café – Ünïcødé 日本語 🎬.mkv", utf8.Files[0].FileName);

        var latin1Xml = "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><nzb>"
            + NzbTestInput.File("&quot;Caf\u00e9.mkv&quot;", NzbTestInput.Segment(1, "a@x")) + "</nzb>";
        var latin1 = await NzbTestInput.ParseAsync(Encoding.Latin1.GetBytes(latin1Xml), useAsync);
        Assert.Equal("Café.mkv", latin1.Files[0].FileName);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Missing_or_unreadable_dates_and_missing_attributes_are_tolerated(bool useAsync)
    {
        var body = NzbTestInput.File("a.bin", NzbTestInput.Segment(1, "a@x"), extraAttributes: "")
            + NzbTestInput.File("b.bin", NzbTestInput.Segment(1, "b@x"), extraAttributes: "date=\"yesterday\"")
            + "<file><segments><segment number=\"1\">c@x</segment></segments></file>";
        var document = await NzbTestInput.ParseAsync(NzbTestInput.Document(body), useAsync);

        Assert.All(document.Files, f => Assert.Null(f.PostedAt));
        var bare = document.Files[2];
        Assert.Equal(string.Empty, bare.Subject);
        Assert.Equal(string.Empty, bare.Poster);
        Assert.Empty(bare.Groups);
        Assert.Equal(0, bare.EncodedBytes);
        Assert.Same(NzbMetadata.Empty, document.Meta);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Unknown_elements_comments_and_nested_markup_are_skipped(bool useAsync)
    {
        var body = "<!-- generated --><extra><file subject=\"ghost.bin\"/></extra>"
            + "<file subject=\"a.bin\"><unknown>text<deep/></unknown><groups><group>g<b>old</b></group><other/></groups>"
            + "<segments><?pi data?><note>n</note><segment number=\"1\">a@<i>ignored</i>x</segment></segments></file>";
        var document = await NzbTestInput.ParseAsync(NzbTestInput.Document(body), useAsync);

        var file = Assert.Single(document.Files);
        Assert.Equal("a.bin", file.FileName);
        Assert.Equal(["g"], file.Groups);
        Assert.Equal("a@x", file.Segments.Span[0].MessageId);
    }

    [Fact]
    public async Task Long_text_is_read_across_buffer_growth()
    {
        var name = new string('n', 5000);
        var xml = NzbTestInput.Document($"<head><meta type=\"name\">{name}</meta></head>"
            + NzbTestInput.File("a.bin", NzbTestInput.Segment(1, new string('i', 240) + "@x")));

        foreach (var useAsync in new[] { false, true })
        {
            var document = await NzbTestInput.ParseAsync(xml, useAsync);
            Assert.Equal(name, document.Meta.Name);
            Assert.Equal(new string('i', 240) + "@x", document.Files[0].Segments.Span[0].MessageId);
        }
    }
}

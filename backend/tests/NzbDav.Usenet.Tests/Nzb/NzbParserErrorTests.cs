using System.Text;
using NzbDav.Usenet.Nzb;

namespace NzbDav.Usenet.Tests.Nzb;

public sealed class NzbParserErrorTests
{
    private static readonly string ThreeSegments = NzbTestInput.Document(NzbTestInput.File("&quot;a.bin&quot;", string.Join('\n',
        NzbTestInput.Segment(1, "a@x"), NzbTestInput.Segment(2, "b@x"), NzbTestInput.Segment(3, "c@x"))));

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Truncated_document_fails_at_its_last_line(bool useAsync)
    {
        var cut = ThreeSegments[..(ThreeSegments.IndexOf("b@x", StringComparison.Ordinal) + 2)];
        var lastLine = cut.Count(c => c == '\n') + 1;

        var error = await NzbTestInput.ParseFailsAsync(cut, useAsync);

        Assert.Equal(lastLine, error.LineNumber);
        Assert.True(error.LinePosition > 0);
        Assert.Contains($"line {error.LineNumber}, position {error.LinePosition}", error.Message);
        Assert.IsType<System.Xml.XmlException>(error.InnerException);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Mismatched_tag_fails_on_its_line(bool useAsync)
    {
        var broken = ThreeSegments.Replace("b@x</segment>", "b@x</segmnt>", StringComparison.Ordinal);
        var badLine = broken[..broken.IndexOf("</segmnt>", StringComparison.Ordinal)].Count(c => c == '\n') + 1;

        var error = await NzbTestInput.ParseFailsAsync(broken, useAsync);

        Assert.Equal(badLine, error.LineNumber);
        Assert.Contains("segmnt", error.Message);
        Assert.DoesNotContain(" Line ", error.Detail);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Empty_or_non_nzb_input_is_rejected(bool useAsync)
    {
        await NzbTestInput.ParseFailsAsync("", useAsync);
        await NzbTestInput.ParseFailsAsync("   \n ", useAsync);
        await NzbTestInput.ParseFailsAsync("not xml at all", useAsync);
        var html = await NzbTestInput.ParseFailsAsync("<html><body>404</body></html>", useAsync);
        Assert.Contains("<html>", html.Message);
        Assert.Equal(1, html.LineNumber);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Nzb_without_files_is_rejected(bool useAsync)
    {
        var error = await NzbTestInput.ParseFailsAsync(NzbTestInput.Document("<head><meta type=\"name\">x</meta></head>"), useAsync);
        Assert.Contains("no <file>", error.Message);
        Assert.Equal(3, error.LineNumber);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_file_without_segments_is_dropped_with_its_reason_and_the_rest_is_kept(bool useAsync)
    {
        var body = NzbTestInput.File("good.bin", NzbTestInput.Segment(1, "a@x"))
            + "\n<file subject=\"empty-one.nfo\"><groups><group>g</group></groups><segments/></file>"
            + "\n<file subject=\"no-segments-element.sfv\"><groups><group>g</group></groups></file>";
        var document = await NzbTestInput.ParseAsync(NzbTestInput.Document(body), useAsync);

        Assert.Equal("good.bin", Assert.Single(document.Files).Subject);
        Assert.Collection(
            document.DroppedFiles,
            d => Assert.Equal(new NzbDroppedFile("empty-one.nfo", "it has no segments", 10, 2), d),
            d => Assert.Equal(new NzbDroppedFile("no-segments-element.sfv", "it has no segments", 11, 2), d));
    }

    [Theory]
    [InlineData("<segment bytes=\"5\">a@x</segment>", "no number")]
    [InlineData("<segment number=\"abc\">a@x</segment>", "number \"abc\"")]
    [InlineData("<segment number=\"0\">a@x</segment>", "number \"0\"")]
    [InlineData("<segment number=\"-1\">a@x</segment>", "number \"-1\"")]
    [InlineData("<segment number=\"99999999999\">a@x</segment>", "number \"99999999999\"")]
    [InlineData("<segment number=\"2\" bytes=\"many\">a@x</segment>", "bytes \"many\"")]
    [InlineData("<segment number=\"2\" bytes=\"-5\">a@x</segment>", "bytes \"-5\"")]
    [InlineData("<segment number=\"2\"/>", "no message-id")]
    [InlineData("<segment number=\"2\">  &lt;&gt; </segment>", "no message-id")]
    [InlineData("<segment number=\"2\">a b@x</segment>", "invalid message-id")]
    [InlineData("<segment number=\"2\">a@x&#13;&#10;QUIT</segment>", "invalid message-id")]
    [InlineData("<segment number=\"2\">&lt;a@x</segment>", "invalid message-id")]
    [InlineData("<segment number=\"2\">a@x&gt;&lt;b@y</segment>", "invalid message-id")]
    [InlineData("<segment number=\"2\">ünï@x</segment>", "invalid message-id")]
    public async Task A_bad_segment_is_skipped_and_leaves_its_file_incomplete_naming_element_and_line(string segment, string expected)
    {
        var xml = NzbTestInput.Document(NzbTestInput.File("a.bin", NzbTestInput.Segment(1, "ok@x") + "\n" + segment));
        foreach (var useAsync in new[] { false, true })
        {
            var file = Assert.Single((await NzbTestInput.ParseAsync(xml, useAsync)).Files);

            Assert.Equal("ok@x", Assert.Single(file.Segments.ToArray()).MessageId);
            var malformed = Assert.IsType<NzbMalformedSegments>(file.MalformedSegments);
            Assert.Equal(1, malformed.Count);
            Assert.Contains("<segment>", malformed.First);
            Assert.Contains(expected, malformed.First);
            Assert.EndsWith("(line 8, position 2)", malformed.First);
            Assert.DoesNotContain('\n', malformed.First);
            Assert.DoesNotContain('\r', malformed.First);
            // The gap after segment 1 is invisible in the numbers; the file still says it is incomplete.
            Assert.Contains("1 of its <segment> elements are malformed", file.IncompleteReason);
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_file_whose_every_segment_is_malformed_is_dropped(bool useAsync)
    {
        var body = NzbTestInput.File("broken.rar", "<segment number=\"1\">a b@x</segment>\n<segment number=\"x\">c@x</segment>")
            + "\n" + NzbTestInput.File("good.mkv", NzbTestInput.Segment(1, "g@x"));
        var document = await NzbTestInput.ParseAsync(NzbTestInput.Document(body), useAsync);

        Assert.Null(Assert.Single(document.Files).IncompleteReason);
        var dropped = Assert.Single(document.DroppedFiles);
        Assert.Equal("broken.rar", dropped.Subject);
        Assert.StartsWith("every one of its 2 segment(s) is malformed; the first: <segment> number 1 has an invalid message-id", dropped.Reason);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task An_nzb_with_no_usable_file_is_refused_naming_the_first_dropped_one(bool useAsync)
    {
        var body = "<file subject=\"empty.nfo\"><segments/></file>\n"
            + NzbTestInput.File("broken.mkv", "<segment number=\"1\"/>");
        var error = await NzbTestInput.ParseFailsAsync(NzbTestInput.Document(body), useAsync);

        Assert.StartsWith("NZB has no usable file: all 2 <file> element(s) were dropped; the first, \"empty.nfo\", because it has no segments", error.Message);
        Assert.Equal(4, error.LineNumber);
    }

    // RFC 3977 §3.6: 250 octets with the angle brackets, so 248 without them, however the NZB writes it.
    [Theory]
    [InlineData("{0}")]
    [InlineData("&lt;{0}&gt;")]
    public async Task A_message_id_of_248_characters_is_read_and_one_of_249_is_refused(string written)
    {
        var longest = new string('a', 246) + "@x";
        var document = await NzbTestInput.ParseAsync(
            NzbTestInput.Document(NzbTestInput.File("a.bin", NzbTestInput.Segment(1, string.Format(written, longest)))), useAsync: false);
        Assert.Equal(longest, document.Files[0].Segments.Span[0].MessageId);

        var xml = NzbTestInput.Document(NzbTestInput.File("a.bin", NzbTestInput.Segment(1, string.Format(written, "a" + longest))));
        var error = await NzbTestInput.ParseFailsAsync(xml, useAsync: false);
        Assert.Contains("invalid message-id", error.Message);
        Assert.Contains("1 to 248 printable ASCII characters", error.Message);
    }

    [Fact]
    public async Task Oversized_text_is_rejected_rather_than_buffered()
    {
        var xml = NzbTestInput.Document(NzbTestInput.File("a.bin", NzbTestInput.Segment(1, new string('a', 70_000) + "@x")));
        var error = await NzbTestInput.ParseFailsAsync(xml, useAsync: true);
        Assert.Contains("too long", error.Message);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Bad_bytes_or_unknown_encoding_are_format_errors(bool useAsync)
    {
        var xml = Encoding.UTF8.GetBytes(NzbTestInput.Document(NzbTestInput.File("a.bin", NzbTestInput.Segment(1, "a@x"))));
        var invalidUtf8 = xml.ToArray();
        invalidUtf8[Array.IndexOf(invalidUtf8, (byte)'@')] = 0xFF;
        await Assert.ThrowsAsync<NzbFormatException>(() => NzbTestInput.ParseAsync(invalidUtf8, useAsync));

        var unknownEncoding = Encoding.ASCII.GetBytes("<?xml version=\"1.0\" encoding=\"no-such-charset\"?><nzb/>");
        await Assert.ThrowsAsync<NzbFormatException>(() => NzbTestInput.ParseAsync(unknownEncoding, useAsync));
    }

    [Fact]
    public async Task Trailing_garbage_after_the_root_is_rejected()
    {
        var xml = NzbTestInput.Document(NzbTestInput.File("a.bin", NzbTestInput.Segment(1, "a@x"))) + "<nzb/>";
        await NzbTestInput.ParseFailsAsync(xml, useAsync: false);
    }

    // Both found by fuzzing (backend/fuzz/findings/nzb): an XmlException from XmlReader.Create (which
    // reads the first bytes to detect the encoding), and an ArgumentOutOfRangeException from inside
    // the runtime's XML reader when a non-ASCII version string makes it switch encodings.
    [Theory]
    [InlineData(false, new byte[] { 0xFF, 0xFE, 0x00, 0x00, 0x20, 0x3C, 0x00, 0x20, 0x3C, 0x65, 0xE9 })]
    [InlineData(true, new byte[] { 0xFF, 0xFE, 0x00, 0x00, 0x20, 0x3C, 0x00, 0x20, 0x3C, 0x65, 0xE9 })]
    [InlineData(false, null)]
    [InlineData(true, null)]
    public async Task Bytes_the_xml_reader_itself_chokes_on_are_a_format_error(bool useAsync, byte[]? bytes)
    {
        bytes ??= [.. "<?xml version=\"1.0Eiiiii"u8, .. Enumerable.Repeat((byte)0x83, 15), 0x96, .. Enumerable.Repeat((byte)0x83, 7), .. "\"?>"u8];
        var parser = new NzbParser();
        var error = useAsync
            ? await Assert.ThrowsAsync<NzbFormatException>(() => parser.ParseAsync(new MemoryStream(bytes), TestContext.Current.CancellationToken))
            : Assert.Throws<NzbFormatException>(() => parser.Parse(new MemoryStream(bytes), TestContext.Current.CancellationToken));
        Assert.StartsWith("NZB is not well-formed XML", error.Detail, StringComparison.Ordinal);
    }
}

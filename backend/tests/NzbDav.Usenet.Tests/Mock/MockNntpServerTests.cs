using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Yenc;

namespace NzbDav.Usenet.Tests.Mock;

/// <summary>The mock server's protocol, checked on the wire with a raw client.</summary>
public sealed class MockNntpServerTests(MockNntpServerFixture fixture)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Greeting_IsReady()
    {
        await using var client = await RawNntpClient.ConnectAsync(fixture.Port, Ct);
        var greeting = await client.ReadLineAsync(Ct);
        Assert.StartsWith("200 ", greeting);
    }

    [Fact]
    public async Task Body_OfDotsFile_IsDotStuffedOnTheWire()
    {
        var article = fixture.Dots.Articles[0];
        var block = await BodyAsync(article);
        var lines = System.Text.Encoding.ASCII.GetString(block).Split("\r\n")[..^1];
        // Every data line starts with an encoded '.', so every one must carry the stuffed extra dot.
        Assert.All(lines[2..^2], line => Assert.StartsWith("..", line));
        Assert.Contains("..", lines); // the lone '.' data line, stuffed
        Assert.Equal(".", lines[^1]);
        Assert.Equal(ExpectedWire(article), block);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(9)]
    [InlineData(10)]
    public async Task Body_OfGeneratedFile_MatchesExpectedBytes(int index)
    {
        var article = fixture.Large.Articles[index];
        var block = await BodyAsync(article);
        Assert.Equal(ExpectedWire(article), block);
    }

    [Fact]
    public void GeneratedFile_ReadExpected_SpansPartsConsistently()
    {
        var file = fixture.Large;
        var across = file.ReadExpected(SegmentBoundary(8) - 10, 20);
        Assert.Equal(file.ReadExpected(SegmentBoundary(8) - 10, 10), across[..10]);
        Assert.Equal(file.ReadExpected(SegmentBoundary(8), 10), across[10..]);
        // Part 9 (index 8) repeats block 0 by design; parts 1 and 2 differ.
        Assert.Equal(file.ReadExpected(0, 64), file.ReadExpected(SegmentBoundary(8), 64));
        Assert.NotEqual(file.ReadExpected(0, 64), file.ReadExpected(SegmentBoundary(1), 64));
        Assert.Throws<ArgumentOutOfRangeException>(() => file.ReadExpected(file.Size - 1, 2));
    }

    [Fact]
    public async Task UnknownAndMissingArticles_Answer430()
    {
        // Its own file on the shared server: marking an article missing touches no other test's.
        var file = fixture.Store.AddFile("x.bin", TestData.Random(5000, 3), 1000);
        fixture.Store.SetMissing(file.Articles[1], missing: true);
        await using var client = await ConnectReadyAsync(fixture.Port);
        await client.SendAsync($"STAT <nope@nowhere>\r\nBODY <{file.Articles[1].MessageId}>\r\nSTAT {file.Articles[2].MessageId}\r\n", Ct);
        Assert.StartsWith("430 ", await client.ReadLineAsync(Ct));
        Assert.StartsWith("430 ", await client.ReadLineAsync(Ct));
        Assert.Equal($"223 0 <{file.Articles[2].MessageId}>", await client.ReadLineAsync(Ct));
    }

    [Fact]
    public async Task PipelinedCommands_AreAnsweredInOrder()
    {
        var a = fixture.OneLine.Articles[0];
        var b = fixture.Large.Articles[3];
        await using var client = await ConnectReadyAsync(fixture.Port);
        await client.SendAsync($"STAT <{a.MessageId}>\r\nSTAT <missing@x>\r\nDATE\r\nHEAD <{a.MessageId}>\r\nFROB\r\nBODY <{a.MessageId}>\r\nSTAT <{b.MessageId}>\r\n", Ct);
        Assert.Equal($"223 0 <{a.MessageId}>", await client.ReadLineAsync(Ct));
        Assert.StartsWith("430 ", await client.ReadLineAsync(Ct));
        Assert.Matches("^111 \\d{14}$", await client.ReadLineAsync(Ct));
        Assert.Equal($"221 0 <{a.MessageId}>", await client.ReadLineAsync(Ct));
        var head = System.Text.Encoding.UTF8.GetString((await client.ReadMultiLineAsync(Ct))!);
        Assert.Contains($"Message-ID: <{a.MessageId}>\r\n", head);
        Assert.Contains("Subject: \"one-line.bin\" yEnc (1/1)\r\n", head);
        Assert.StartsWith("500 ", await client.ReadLineAsync(Ct));
        Assert.Equal($"222 0 <{a.MessageId}>", await client.ReadLineAsync(Ct));
        Assert.Equal(ExpectedWire(a), await client.ReadMultiLineAsync(Ct));
        Assert.Equal($"223 0 <{b.MessageId}>", await client.ReadLineAsync(Ct));
    }

    [Fact]
    public async Task Article_HasHeadersBlankLineAndBody()
    {
        var a = fixture.OneByte.Articles[0];
        await using var client = await ConnectReadyAsync(fixture.Port);
        await client.SendAsync($"ARTICLE <{a.MessageId}>\r\nQUIT\r\n", Ct);
        Assert.StartsWith("220 ", await client.ReadLineAsync(Ct));
        var text = System.Text.Encoding.UTF8.GetString((await client.ReadMultiLineAsync(Ct))!);
        var split = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
        Assert.True(split > 0);
        Assert.StartsWith("=ybegin part=1 total=1 ", text[(split + 4)..]);
        Assert.StartsWith("205 ", await client.ReadLineAsync(Ct));
        Assert.Null(await client.ReadLineAsync(Ct));
    }

    [Fact]
    public async Task Capabilities_ModeReader_Group_Date()
    {
        await using var client = await ConnectReadyAsync(fixture.Port);
        await client.SendAsync("CAPABILITIES\r\nMODE READER\r\nGROUP alt.test\r\nDATE\r\n", Ct);
        Assert.StartsWith("101 ", await client.ReadLineAsync(Ct));
        Assert.Contains("VERSION 2", System.Text.Encoding.ASCII.GetString((await client.ReadMultiLineAsync(Ct))!));
        Assert.StartsWith("201 ", await client.ReadLineAsync(Ct));
        Assert.Matches("^211 \\d+ 1 \\d+ alt.test$", await client.ReadLineAsync(Ct));
        var date = (await client.ReadLineAsync(Ct))!;
        var parsed = DateTime.ParseExact(date[4..], "yyyyMMddHHmmss", System.Globalization.CultureInfo.InvariantCulture);
        Assert.InRange(parsed, DateTime.UtcNow.AddMinutes(-5), DateTime.UtcNow.AddMinutes(5));
    }

    [Fact]
    public async Task Nzb_IsValidXml_WithOneFilePerPostedFile()
    {
        using var stream = new MemoryStream();
        fixture.Server.WriteNzb(stream, "fixture");
        stream.Position = 0;
        var files = NzbProbe.Read(stream);
        Assert.Equal(fixture.Server.Store.Files.Count, files.Count);
        var large = files.Single(f => f.Subject.Contains("\"large.bin\"", StringComparison.Ordinal));
        Assert.EndsWith("yEnc (1/11)", large.Subject);
        Assert.Equal(fixture.Large.Articles.Select(a => a.MessageId), large.Segments.Select(s => s.MessageId));
        Assert.Equal(fixture.Large.Articles.Select(a => a.EncodedSize), large.Segments.Select(s => s.Bytes));
    }

    /// <summary>What a poster's encoder makes of the article's true bytes, as it must appear on the wire.</summary>
    internal static byte[] ExpectedWire(MockArticle article)
    {
        var data = article.File.ReadExpected(article.PartBegin, article.PartSize);
        var spec = new YencPartSpec(article.File.Name, article.File.Size, article.Number, article.File.Articles.Count, article.PartBegin);
        return [.. YencEncoder.Encode(data, spec, new YencEncoderOptions { DotStuff = true }), .. ".\r\n"u8];
    }

    private static long SegmentBoundary(int index) => (long)index * MockNntpServerFixture.SegmentSize;

    private async Task<byte[]> BodyAsync(MockArticle article)
    {
        await using var client = await ConnectReadyAsync(fixture.Port);
        await client.SendAsync($"BODY <{article.MessageId}>\r\n", Ct);
        Assert.Equal($"222 0 <{article.MessageId}>", await client.ReadLineAsync(Ct));
        return (await client.ReadMultiLineAsync(Ct))!;
    }

    internal static async Task<RawNntpClient> ConnectReadyAsync(int port, bool tls = false)
    {
        var client = await RawNntpClient.ConnectAsync(port, Ct, tls);
        Assert.StartsWith("200 ", await client.ReadLineAsync(Ct));
        return client;
    }
}

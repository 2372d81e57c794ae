using NzbDav.MockNntp.Articles;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Tests.Mock;

namespace NzbDav.Usenet.Tests.Nntp;

/// <summary>The client against the shared mock server: commands, decoding and pipelining.</summary>
public sealed class NntpConnectionTests(MockNntpServerFixture fixture)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Stat_HitIsTrue_MissIsFalse_WithOrWithoutBrackets()
    {
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(fixture.Port));
        var id = fixture.OneByte.Articles[0].MessageId;
        Assert.True(await connection.StatAsync(id, Ct));
        Assert.True(await connection.StatAsync($"<{id}>", Ct));
        Assert.False(await connection.StatAsync("<no-such-article@nowhere>", Ct));
        Assert.True(connection.IsUsable);
    }

    public static TheoryData<string, int> Articles => new()
    {
        { nameof(MockNntpServerFixture.OneByte), 0 },
        { nameof(MockNntpServerFixture.OneLine), 0 },
        { nameof(MockNntpServerFixture.Dots), 0 },
        { nameof(MockNntpServerFixture.Large), 0 },
        { nameof(MockNntpServerFixture.Large), 9 },
        { nameof(MockNntpServerFixture.Large), 10 },
    };

    [Theory]
    [MemberData(nameof(Articles))]
    public async Task Body_RoundTripsByteExact(string file, int index)
    {
        var article = File(file).Articles[index];
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(fixture.Port));
        var target = new RecordingBodyTarget(maxSpan: 10_000);
        var header = await connection.BodyAsync(article.MessageId, target, Ct);
        Assert.Equal(article.PartBegin, header.PartBegin);
        Assert.Equal(article.PartSize, header.PartSize);
        Assert.Equal(article.File.Size, header.FileSize);
        Assert.Equal(article.File.ReadExpected(article.PartBegin, article.PartSize), target.Data);
        Assert.NotNull(target.Trailer);
        Assert.True(connection.IsUsable);
    }

    [Fact]
    public async Task Body_ManyPipelinedOnOneConnection_AllCorrectInOrder()
    {
        const int depth = 4;
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(fixture.Port, depth));
        var articles = fixture.Large.Articles.Concat(fixture.Dots.Articles).Concat(fixture.OneByte.Articles).ToArray();
        var targets = articles.Select(_ => new RecordingBodyTarget()).ToArray();
        // More callers than the depth: the extra ones wait for a slot.
        var bodies = articles.Select((a, i) => connection.BodyAsync(a.MessageId, targets[i], Ct)).ToArray();
        var headers = await Task.WhenAll(bodies);
        for (var i = 0; i < articles.Length; i++)
        {
            Assert.Equal(articles[i].PartBegin, headers[i].PartBegin);
            Assert.Equal(articles[i].File.ReadExpected(articles[i].PartBegin, articles[i].PartSize), targets[i].Data);
        }
    }

    [Fact]
    public async Task Body_MissingArticle_Throws430_ConnectionStaysUsable()
    {
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(fixture.Port));
        var error = await Assert.ThrowsAsync<NntpArticleNotFoundException>(() => connection.BodyAsync("gone@nowhere", new RecordingBodyTarget(), Ct));
        Assert.False(error.ConnectionBroken);
        Assert.Equal("gone@nowhere", error.MessageId);
        Assert.True(connection.IsUsable);
        var target = new RecordingBodyTarget();
        await connection.BodyAsync(fixture.OneLine.Articles[0].MessageId, target, Ct);
        Assert.Equal(128, target.Written);
    }

    [Theory]
    [InlineData("")]
    [InlineData("<>")]
    [InlineData("has space@x")]
    [InlineData("line\r\nbreak@x")]
    public async Task InvalidMessageId_IsRejectedBeforeSending(string id)
    {
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(fixture.Port));
        await Assert.ThrowsAsync<ArgumentException>(() => connection.StatAsync(id, Ct));
        Assert.True(await connection.StatAsync(fixture.OneByte.Articles[0].MessageId, Ct));
    }

    [Fact]
    public async Task A_message_id_of_250_octets_with_its_brackets_is_sent_and_one_of_251_is_refused()
    {
        // RFC 3977 §3.6 counts the angle brackets: 248 characters between them is the most.
        var longest = new string('a', 246) + "@x";
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(fixture.Port));

        // 430 from the server: the longest id went out, in either form.
        Assert.False(await connection.StatAsync(longest, Ct));
        Assert.False(await connection.StatAsync($"<{longest}>", Ct));
        await Assert.ThrowsAsync<ArgumentException>(() => connection.StatAsync("a" + longest, Ct));
        await Assert.ThrowsAsync<ArgumentException>(() => connection.StatAsync($"<a{longest}>", Ct));
        Assert.True(await connection.StatAsync(fixture.OneByte.Articles[0].MessageId, Ct));
    }

    private MockFile File(string name) => name switch
    {
        nameof(MockNntpServerFixture.OneByte) => fixture.OneByte,
        nameof(MockNntpServerFixture.OneLine) => fixture.OneLine,
        nameof(MockNntpServerFixture.Dots) => fixture.Dots,
        _ => fixture.Large,
    };
}

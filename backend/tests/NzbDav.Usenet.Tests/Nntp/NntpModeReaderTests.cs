using NzbDav.MockNntp;
using NzbDav.Usenet.Tests.Mock;
using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Tests.Nntp;

/// <summary>
/// Mode-switching servers (INN greeting a feeding peer in transit mode): the client sends MODE READER
/// when the greeting says so or when the login is refused, and only then.
/// </summary>
public sealed class NntpModeReaderTests
{
    private const string Ready = "200 ready\r\n";

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_transit_mode_server_is_switched_to_reader_mode_before_reading(bool login)
    {
        await using var server = await StartAsync(transit: true, login);
        var article = server.Store.Files[0].Articles[1];
        var provider = NntpTestProviders.For(server.Port) with { User = login ? "reader" : null, Password = login ? "secret" : null };

        await using var connection = await NntpTestProviders.ConnectAsync(provider);
        var target = new RecordingBodyTarget();
        await connection.BodyAsync(article.MessageId, target, Ct);

        Assert.Equal(article.File.ReadExpected(article.PartBegin, article.PartSize), target.Data);
        Assert.Equal(1, server.Stats.GetCommandCount(MockCommandKind.ModeReader));
        Assert.Equal(login ? 2 : 0, server.Stats.GetCommandCount(MockCommandKind.AuthInfo));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_reader_server_gets_no_MODE_READER(bool login)
    {
        await using var server = await StartAsync(transit: false, login);
        var provider = NntpTestProviders.For(server.Port) with { User = login ? "reader" : null, Password = login ? "secret" : null };

        await using var connection = await NntpTestProviders.ConnectAsync(provider);
        Assert.True(await connection.StatAsync(server.Store.Files[0].Articles[0].MessageId, Ct));

        Assert.Equal(0, server.Stats.GetCommandCount(MockCommandKind.ModeReader));
    }

    [Fact]
    public async Task The_mock_in_transit_mode_answers_as_INN_does_until_MODE_READER()
    {
        await using var server = await StartAsync(transit: true, login: false);
        var id = "<" + server.Store.Files[0].Articles[0].MessageId + ">";
        await using var client = await RawNntpClient.ConnectAsync(server.Port, Ct);

        Assert.EndsWith("(transit mode)", await client.ReadLineAsync(Ct), StringComparison.Ordinal);
        Assert.StartsWith("223 ", await CommandAsync(client, "STAT " + id), StringComparison.Ordinal);
        Assert.Equal("401 MODE-READER", await CommandAsync(client, "BODY " + id));
        Assert.Equal("401 MODE-READER", await CommandAsync(client, "GROUP alt.binaries.nzbdav.mock"));
        Assert.StartsWith("502 ", await CommandAsync(client, "AUTHINFO USER someone"), StringComparison.Ordinal);
        Assert.StartsWith("201 ", await CommandAsync(client, "MODE READER"), StringComparison.Ordinal);
        Assert.StartsWith("211 ", await CommandAsync(client, "GROUP alt.binaries.nzbdav.mock"), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_login_refused_with_502_is_retried_once_after_MODE_READER()
    {
        await using var server = new ScriptedNntpServer(Ready,
            "502 Authentication will fail\r\n", "200 reader mode\r\n", "381 password\r\n", "281 ok\r\n", "223 0 <a@b>\r\n");
        var provider = NntpTestProviders.For(server.Port) with { User = "bob", Password = "pw" };

        await using var connection = await NntpTestProviders.ConnectAsync(provider);
        Assert.True(await connection.StatAsync("a@b", Ct));

        Assert.Equal(["AUTHINFO USER bob", "MODE READER", "AUTHINFO USER bob", "AUTHINFO PASS pw", "STAT <a@b>"], server.Received);
    }

    [Fact]
    public async Task A_login_that_needs_encryption_says_to_turn_on_TLS()
    {
        await using var server = new ScriptedNntpServer(Ready, "483 Encryption required\r\n");
        var provider = NntpTestProviders.For(server.Port) with { User = "bob", Password = "pw" };

        var refused = await Assert.ThrowsAsync<NntpAuthenticationException>(() => NntpTestProviders.ConnectAsync(provider));
        Assert.Contains("turn on TLS", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_401_answer_to_BODY_fails_with_the_servers_words()
    {
        await using var server = new ScriptedNntpServer(Ready, "401 MODE-READER\r\n");
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));

        var failure = await Assert.ThrowsAsync<NntpProtocolException>(() => connection.BodyAsync("a@b", new RecordingBodyTarget(), Ct));
        Assert.Contains("401 MODE-READER", failure.Message, StringComparison.Ordinal);
    }

    private static async Task<string?> CommandAsync(RawNntpClient client, string line)
    {
        await client.SendAsync(line + "\r\n", Ct);
        return await client.ReadLineAsync(Ct);
    }

    private static async Task<MockNntpServer> StartAsync(bool transit, bool login)
    {
        var server = new MockNntpServer(new MockNntpOptions
        {
            Seed = 5, TransitMode = transit, User = login ? "reader" : null, Password = login ? "secret" : null,
        });
        server.Store.AddGeneratedFile("mode.bin", 3L * 100_000, 100_000);
        await server.StartAsync(Ct);
        return server;
    }
}

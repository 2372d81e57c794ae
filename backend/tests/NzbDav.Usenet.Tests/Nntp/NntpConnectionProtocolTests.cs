using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Nntp;

/// <summary>Answers only a scripted server gives: odd codes and malformed yEnc.</summary>
public sealed class NntpConnectionProtocolTests
{
    private const string Ready = "200 ready\r\n";

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Greeting400_ThrowsServiceUnavailable()
    {
        await using var server = new ScriptedNntpServer("400 service temporarily unavailable\r\n");
        var error = await Assert.ThrowsAsync<NntpServiceUnavailableException>(() => NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port)));
        Assert.Equal(400, error.Code);
    }

    [Fact]
    public async Task UnexpectedStatus_BreaksWithProtocolError()
    {
        await using var server = new ScriptedNntpServer(Ready, "500 what?\r\n");
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        var error = await Assert.ThrowsAsync<NntpProtocolException>(() => connection.BodyAsync("a@b", new RecordingBodyTarget(), Ct));
        Assert.True(error.ConnectionBroken);
        Assert.False(connection.IsUsable);
        Assert.Equal("BODY <a@b>", server.Received[0]);
    }

    [Fact]
    public async Task PartLargerThanHeaderSays_ThrowsYenc_AndTheNextAnswerStillParses()
    {
        var oversized = "222 0 <a@b>\r\n=ybegin part=1 total=1 line=128 size=3 name=x\r\n=ypart begin=1 end=2\r\nkkk\r\n=yend size=3 part=1\r\n.\r\n";
        await using var server = new ScriptedNntpServer(Ready, oversized, "223 0 <c@d>\r\n");
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        var target = new RecordingBodyTarget();
        var body = connection.BodyAsync("a@b", target, Ct);
        var stat = connection.StatAsync("c@d", Ct);
        await Assert.ThrowsAsync<YencException>(() => body);
        Assert.Equal(2, target.Written);
        Assert.True(await stat);
        Assert.True(connection.IsUsable);
    }

    [Fact]
    public async Task BodyWithoutYenc_ThrowsYenc_ConnectionStaysUsable()
    {
        await using var server = new ScriptedNntpServer(Ready, "222 0 <a@b>\r\nplain text\r\n..dotted\r\n.\r\n", "223 0 <c@d>\r\n");
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        await Assert.ThrowsAsync<YencException>(() => connection.BodyAsync("a@b", new RecordingBodyTarget(), Ct));
        Assert.True(await connection.StatAsync("c@d", Ct));
    }

    [Fact]
    public async Task MalformedYencLine_SkipsToTerminator_ConnectionStaysUsable()
    {
        var broken = "222 0 <a@b>\r\n=ybegin part=x total=1 line=128 size=3 name=x\r\n=ypart begin=1 end=3\r\nkkk\r\n.\r\n";
        await using var server = new ScriptedNntpServer(Ready, broken, "223 0 <c@d>\r\n");
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        await Assert.ThrowsAsync<YencException>(() => connection.BodyAsync("a@b", new RecordingBodyTarget(), Ct));
        Assert.True(await connection.StatAsync("<c@d>", Ct));
    }

    [Fact]
    public async Task AuthWithoutPasswordWhenAsked_ThrowsAuthentication()
    {
        await using var server = new ScriptedNntpServer(Ready, "381 password required\r\n");
        var provider = NntpTestProviders.For(server.Port) with { User = "bob" };
        await Assert.ThrowsAsync<NntpAuthenticationException>(() => NntpTestProviders.ConnectAsync(provider));
    }

    [Fact]
    public async Task SilentGreeting_TimesOut()
    {
        await using var server = new ScriptedNntpServer("");
        var provider = NntpTestProviders.For(server.Port, timeout: TimeSpan.FromMilliseconds(300));
        await Assert.ThrowsAsync<NntpTimeoutException>(() => NntpTestProviders.ConnectAsync(provider));
    }

    [Fact]
    public async Task CallerCancellationDuringConnect_IsNotATimeout()
    {
        await using var server = new ScriptedNntpServer("");
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(100));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => NntpTestProviders.Factory.ConnectAsync(NntpTestProviders.For(server.Port), TimeProvider.System, cancel.Token));
    }
}

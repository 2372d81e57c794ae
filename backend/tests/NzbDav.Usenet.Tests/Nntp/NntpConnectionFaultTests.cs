using Microsoft.Extensions.Time.Testing;
using NzbDav.MockNntp;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Nntp;

/// <summary>The client against small dedicated servers: auth, limits, faults, timeouts, cancellation, TLS.</summary>
public sealed class NntpConnectionFaultTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Auth_RightPasswordWorks_WrongPasswordThrows()
    {
        await using var server = await StartAsync(new MockNntpOptions { User = "bob", Password = "pw" });
        var provider = NntpTestProviders.For(server.Port) with { User = "bob", Password = "pw" };
        await using (var connection = await NntpTestProviders.ConnectAsync(provider))
        {
            Assert.True(await connection.StatAsync(FirstId(server), Ct));
        }
        var error = await Assert.ThrowsAsync<NntpAuthenticationException>(() => NntpTestProviders.ConnectAsync(provider with { Password = "nope" }));
        Assert.True(error.ConnectionBroken);
    }

    [Fact]
    public async Task Auth_DemandedMidSession_BreaksWithAuthenticationError()
    {
        await using var server = await StartAsync(new MockNntpOptions { User = "bob", Password = "pw" });
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        await Assert.ThrowsAsync<NntpAuthenticationException>(() => connection.StatAsync(FirstId(server), Ct));
        Assert.False(connection.IsUsable);
    }

    [Fact]
    public async Task Greeting502_ThrowsServiceUnavailable()
    {
        await using var server = await StartAsync(new MockNntpOptions { MaxConnections = 1 });
        await using var first = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        var error = await Assert.ThrowsAsync<NntpServiceUnavailableException>(() => NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port)));
        Assert.Equal(502, error.Code);
        Assert.True(first.IsUsable);
    }

    [Fact]
    public async Task Pipeline_NeverMoreThanDepthInFlight_ExtraCallersWait()
    {
        await using var server = await StartAsync(new MockNntpOptions { Behavior = new MockBehavior { Latency = TimeSpan.FromMilliseconds(400) } });
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port, depth: 4));
        var received = server.Stats.CommandsReceived;
        var stats = Enumerable.Range(0, 6).Select(_ => connection.StatAsync(FirstId(server), Ct)).ToArray();
        while (server.Stats.CommandsReceived < received + 4)
        {
            await Task.Delay(5, Ct);
        }
        // The answers are 400 ms away: the two extra callers must still be waiting for a slot.
        Assert.Equal(received + 4, server.Stats.CommandsReceived);
        Assert.DoesNotContain(stats, s => s.IsCompleted);
        Assert.All(await Task.WhenAll(stats), Assert.True);
        Assert.Equal(received + 6, server.Stats.CommandsReceived);
    }

    [Fact]
    public async Task Body_StreamsIntoTheTargetBeforeTheArticleEnds()
    {
        await using var server = await StartAsync(new MockNntpOptions { Behavior = new MockBehavior { BandwidthBytesPerSecond = 256 * 1024 } }, segmentSize: 200_000);
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        var target = new RecordingBodyTarget();
        var article = server.Store.Files[0].Articles[0];
        var body = connection.BodyAsync(article.MessageId, target, Ct);
        await target.FirstAdvance.WaitAsync(Ct);
        Assert.False(body.IsCompleted);
        Assert.InRange(target.Written, 1, article.PartSize - 1);
        await body;
        Assert.Equal(article.File.ReadExpected(0, article.PartSize), target.Data);
        Assert.True(target.AdvanceCalls > 1);
    }

    [Fact]
    public async Task Body_CrcMismatch_ThrowsYencException_ConnectionStaysUsable()
    {
        await using var server = await StartAsync(new MockNntpOptions());
        var bad = server.Store.Files[0].Articles[0];
        server.Store.SetCorrupt(bad, corrupt: true);
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        var good = new RecordingBodyTarget();
        var failing = connection.BodyAsync(bad.MessageId, new RecordingBodyTarget(), Ct);
        var following = connection.BodyAsync(server.Store.Files[0].Articles[1].MessageId, good, Ct);
        await Assert.ThrowsAsync<YencCrcMismatchException>(() => failing);
        await following;
        Assert.True(connection.IsUsable);
        Assert.Equal(server.Store.Files[0].ReadExpected(10_000, 10_000), good.Data);
    }

    [Fact]
    public async Task Body_TargetThatThrows_FailsThatBodyOnly()
    {
        await using var server = await StartAsync(new MockNntpOptions());
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        await Assert.ThrowsAsync<InvalidOperationException>(() => connection.BodyAsync(FirstId(server), new ThrowingBodyTarget(), Ct));
        Assert.True(connection.IsUsable);
        Assert.True(await connection.StatAsync(FirstId(server), Ct));
    }

    [Fact]
    public async Task Drop_MidBody_BreaksAndFailsEveryOutstandingOperation()
    {
        await using var server = await StartAsync(new MockNntpOptions { Behavior = new MockBehavior { DropFraction = 1 } });
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port, depth: 3));
        var articles = server.Store.Files[0].Articles;
        var bodies = articles.Select(a => connection.BodyAsync(a.MessageId, new RecordingBodyTarget(), Ct)).ToArray();
        foreach (var body in bodies)
        {
            var error = await Assert.ThrowsAnyAsync<NntpException>(() => body);
            Assert.True(error.ConnectionBroken);
        }
        Assert.False(connection.IsUsable);
        var later = await Assert.ThrowsAnyAsync<NntpException>(() => connection.StatAsync(FirstId(server), Ct));
        Assert.True(later.ConnectionBroken);
    }

    [Fact]
    public async Task Stall_TimesOutWithNntpTimeoutException()
    {
        var behavior = new MockBehavior { StallFraction = 1, StallDuration = TimeSpan.FromSeconds(5) };
        await using var server = await StartAsync(new MockNntpOptions { Behavior = behavior });
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port, timeout: TimeSpan.FromMilliseconds(500)));
        var first = connection.BodyAsync(FirstId(server), new RecordingBodyTarget(), Ct);
        var second = connection.StatAsync(FirstId(server), Ct);
        var error = await Assert.ThrowsAsync<NntpTimeoutException>(() => first);
        Assert.True(error.ConnectionBroken);
        Assert.True((await Assert.ThrowsAnyAsync<NntpException>(() => second)).ConnectionBroken);
        Assert.False(connection.IsUsable);
    }

    [Fact]
    public async Task A_silent_answer_breaks_the_session_once_the_sessions_clock_passes_OperationTimeout()
    {
        var clock = new FakeTimeProvider(DateTimeOffset.UtcNow);
        // Stalls for an hour of real time (or until the client closes): only the clock ends the wait.
        var behavior = new MockBehavior { StallFraction = 1, StallDuration = TimeSpan.FromHours(1) };
        await using var server = await StartAsync(new MockNntpOptions { Behavior = behavior });
        var timeout = TimeSpan.FromSeconds(30);
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port, timeout: timeout), clock);
        var body = connection.BodyAsync(FirstId(server), new RecordingBodyTarget(), Ct);

        // The watchdog looks every 5 s of the clock; 29 s of silence is not yet a whole timeout.
        clock.Advance(timeout - TimeSpan.FromSeconds(1));
        Assert.False(body.IsCompleted);
        Assert.True(connection.IsUsable);

        // Its look at 35 s finds more than the timeout; on the system clock nothing would happen for 30 s.
        clock.Advance(TimeSpan.FromSeconds(6));
        var error = await Assert.ThrowsAsync<NntpTimeoutException>(() => body.WaitAsync(TimeSpan.FromSeconds(10), Ct));
        Assert.True(error.ConnectionBroken);
        Assert.Contains("sent nothing for 35000 ms", error.Message, StringComparison.Ordinal);
        Assert.False(connection.IsUsable);
    }

    [Fact]
    public async Task Cancel_MidBody_BreaksTheConnection()
    {
        await using var server = await StartAsync(new MockNntpOptions { Behavior = new MockBehavior { BandwidthBytesPerSecond = 128 * 1024 } }, segmentSize: 200_000);
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(Ct);
        var target = new RecordingBodyTarget();
        var body = connection.BodyAsync(FirstId(server), target, cancel.Token);
        await target.FirstAdvance.WaitAsync(Ct);
        await cancel.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => body);
        Assert.False(connection.IsUsable);
    }

    [Fact]
    public async Task Cancel_BeforeTheAnswerStarts_DiscardsItAndStaysUsable()
    {
        await using var server = await StartAsync(new MockNntpOptions { Behavior = new MockBehavior { Latency = TimeSpan.FromMilliseconds(300) } });
        await using var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(Ct);
        var abandoned = connection.BodyAsync(FirstId(server), new RecordingBodyTarget(), cancel.Token);
        var kept = new RecordingBodyTarget();
        var next = connection.BodyAsync(server.Store.Files[0].Articles[1].MessageId, kept, Ct);
        await cancel.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => abandoned);
        await next;
        Assert.True(connection.IsUsable);
        Assert.Equal(server.Store.Files[0].ReadExpected(10_000, 10_000), kept.Data);
    }

    [Fact]
    public async Task Tls_SelfSignedWorksOnlyWhenAllowed()
    {
        await using var server = await StartAsync(new MockNntpOptions { UseTls = true });
        var provider = NntpTestProviders.For(server.Port) with { UseTls = true, AllowUntrustedCertificate = true };
        await using (var connection = await NntpTestProviders.ConnectAsync(provider))
        {
            var target = new RecordingBodyTarget();
            await connection.BodyAsync(FirstId(server), target, Ct);
            Assert.Equal(server.Store.Files[0].ReadExpected(0, 10_000), target.Data);
        }
        await Assert.ThrowsAsync<NntpProtocolException>(() => NntpTestProviders.ConnectAsync(provider with { AllowUntrustedCertificate = false }));
    }

    [Fact]
    public async Task Dispose_SendsQuit_AndLaterCallsFail()
    {
        await using var server = await StartAsync(new MockNntpOptions());
        var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        Assert.True(await connection.StatAsync(FirstId(server), Ct));
        await connection.DisposeAsync();
        Assert.Equal(1, server.Stats.GetCommandCount(MockCommandKind.Quit));
        Assert.False(connection.IsUsable);
        Assert.True((await Assert.ThrowsAnyAsync<NntpException>(() => connection.StatAsync(FirstId(server), Ct))).ConnectionBroken);
        await connection.DisposeAsync();
    }

    private static string FirstId(MockNntpServer server) => server.Store.Files[0].Articles[0].MessageId;

    private static async Task<MockNntpServer> StartAsync(MockNntpOptions options, int segmentSize = 10_000)
    {
        var server = new MockNntpServer(options);
        server.Store.AddGeneratedFile("fault.bin", (3L * segmentSize) - 100, segmentSize);
        await server.StartAsync(Ct);
        return server;
    }
}

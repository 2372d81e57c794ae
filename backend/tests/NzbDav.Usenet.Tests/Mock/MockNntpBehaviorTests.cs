using System.Diagnostics;
using NzbDav.MockNntp;

namespace NzbDav.Usenet.Tests.Mock;

/// <summary>Auth, latency, connection limit, faults and TLS, each on its own small server.</summary>
public sealed class MockNntpBehaviorTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Auth_IsRequired_WrongPasswordRefused_RightPasswordAccepted()
    {
        await using var server = await StartAsync(new MockNntpOptions { User = "alice", Password = "s3cret" });
        await using var client = await MockNntpServerTests.ConnectReadyAsync(server.Port);
        await client.SendAsync($"STAT <{server.Store.Files[0].Articles[0].MessageId}>\r\n", Ct);
        Assert.StartsWith("480 ", await client.ReadLineAsync(Ct));
        await client.SendAsync("AUTHINFO PASS s3cret\r\n", Ct);
        Assert.StartsWith("482 ", await client.ReadLineAsync(Ct));
        await client.SendAsync("AUTHINFO USER alice\r\nAUTHINFO PASS wrong\r\n", Ct);
        Assert.StartsWith("381 ", await client.ReadLineAsync(Ct));
        Assert.StartsWith("481 ", await client.ReadLineAsync(Ct));
        await client.SendAsync($"AUTHINFO USER alice\r\nAUTHINFO PASS s3cret\r\nSTAT <{server.Store.Files[0].Articles[0].MessageId}>\r\n", Ct);
        Assert.StartsWith("381 ", await client.ReadLineAsync(Ct));
        Assert.StartsWith("281 ", await client.ReadLineAsync(Ct));
        Assert.StartsWith("223 ", await client.ReadLineAsync(Ct));
    }

    [Fact]
    public async Task Latency_PipelinedCommandsComeBackAfterAboutOneLatency()
    {
        var latency = TimeSpan.FromMilliseconds(200);
        await using var server = await StartAsync(new MockNntpOptions { Behavior = new MockBehavior { Latency = latency } });
        await using var client = await MockNntpServerTests.ConnectReadyAsync(server.Port);
        var id = server.Store.Files[0].Articles[0].MessageId;
        var started = Stopwatch.StartNew();
        await client.SendAsync(string.Concat(Enumerable.Repeat($"STAT <{id}>\r\n", 8)), Ct);
        for (var i = 0; i < 8; i++)
        {
            Assert.StartsWith("223 ", await client.ReadLineAsync(Ct));
        }
        // Serial answers would take 8 × 200 ms; pipelined ones one latency (bound generous for a busy machine).
        Assert.InRange(started.Elapsed, latency * 0.9, latency * 3);
    }

    [Fact]
    public async Task Control_LatencySetsTheDelayOfLaterAnswersAndRefusesNonsense()
    {
        await using var server = await StartAsync(new MockNntpOptions { AllowControl = true });
        await using var client = await MockNntpServerTests.ConnectReadyAsync(server.Port);
        await client.SendAsync("XMOCK LATENCY 250 100\r\n", Ct);
        Assert.Equal("290 latency 250 ms ± 100 ms", await client.ReadLineAsync(Ct));
        Assert.Equal((TimeSpan.FromMilliseconds(250), TimeSpan.FromMilliseconds(100)), (server.Behavior.Latency, server.Behavior.Jitter));

        foreach (var nonsense in new[] { "XMOCK LATENCY fast", "XMOCK LATENCY 100 200", "XMOCK LATENCY -5" })
        {
            await client.SendAsync(nonsense + "\r\n", Ct);
            Assert.StartsWith("501 usage: XMOCK LATENCY", await client.ReadLineAsync(Ct));
        }

        Assert.Equal(TimeSpan.FromMilliseconds(250), server.Behavior.Latency);
        await client.SendAsync("XMOCK LATENCY 0\r\n", Ct);
        Assert.Equal("290 latency 0 ms ± 0 ms", await client.ReadLineAsync(Ct));
        Assert.Equal(TimeSpan.Zero, server.Behavior.Latency);
    }

    [Fact]
    public async Task MaxConnections_RefusesTheExtraConnectionWith502()
    {
        await using var server = await StartAsync(new MockNntpOptions { MaxConnections = 1 });
        await using var first = await MockNntpServerTests.ConnectReadyAsync(server.Port);
        await using var second = await RawNntpClient.ConnectAsync(server.Port, Ct);
        Assert.StartsWith("502 ", await second.ReadLineAsync(Ct));
        Assert.Null(await second.ReadLineAsync(Ct));
        Assert.Equal(1, server.Stats.RejectedConnections);
        Assert.Equal(1, server.Stats.PeakConnections);
    }

    [Fact]
    public async Task Drop_ClosesTheConnectionMidBody()
    {
        await using var server = await StartAsync(new MockNntpOptions { Behavior = new MockBehavior { DropFraction = 1 } });
        await using var client = await MockNntpServerTests.ConnectReadyAsync(server.Port);
        await client.SendAsync($"BODY <{server.Store.Files[0].Articles[0].MessageId}>\r\n", Ct);
        Assert.StartsWith("222 ", await client.ReadLineAsync(Ct));
        Assert.Null(await client.ReadMultiLineAsync(Ct));
    }

    [Fact]
    public async Task Stall_AnswersNothingThenCloses()
    {
        var behavior = new MockBehavior { StallFraction = 1, StallDuration = TimeSpan.FromMilliseconds(300) };
        await using var server = await StartAsync(new MockNntpOptions { Behavior = behavior });
        await using var client = await MockNntpServerTests.ConnectReadyAsync(server.Port);
        await client.SendAsync($"STAT <{server.Store.Files[0].Articles[0].MessageId}>\r\n", Ct);
        Assert.Null(await client.ReadLineAsync(Ct));
    }

    [Fact]
    public async Task MissingFraction_IsDeterministicFromTheSeed()
    {
        async Task<bool[]> MissingAsync(int seed)
        {
            await using var server = await StartAsync(new MockNntpOptions { Seed = seed, Behavior = new MockBehavior { MissingFraction = 0.5 } }, parts: 40);
            return server.Store.Files[0].Articles.Select(server.Store.IsMissing).ToArray();
        }
        var first = await MissingAsync(5);
        Assert.Equal(first, await MissingAsync(5));
        Assert.InRange(first.Count(m => m), 5, 35);
    }

    [Fact]
    public async Task Tls_ServesOverImplicitTls()
    {
        await using var server = await StartAsync(new MockNntpOptions { UseTls = true });
        await using var client = await MockNntpServerTests.ConnectReadyAsync(server.Port, tls: true);
        var article = server.Store.Files[0].Articles[1];
        await client.SendAsync($"BODY <{article.MessageId}>\r\n", Ct);
        Assert.StartsWith("222 ", await client.ReadLineAsync(Ct));
        Assert.Equal(MockNntpServerTests.ExpectedWire(article), await client.ReadMultiLineAsync(Ct));
    }

    [Fact]
    public async Task Stats_CountConnectionsCommandsAndBytes()
    {
        await using var server = await StartAsync(new MockNntpOptions());
        await using (var a = await MockNntpServerTests.ConnectReadyAsync(server.Port))
        await using (var b = await MockNntpServerTests.ConnectReadyAsync(server.Port))
        {
            await a.SendAsync($"BODY <{server.Store.Files[0].Articles[0].MessageId}>\r\nSTAT <x@y>\r\n", Ct);
            Assert.StartsWith("222 ", await a.ReadLineAsync(Ct));
            Assert.NotNull(await a.ReadMultiLineAsync(Ct));
            Assert.StartsWith("430 ", await a.ReadLineAsync(Ct));
            Assert.Equal(2, server.Stats.CurrentConnections);
        }
        Assert.Equal(2, server.Stats.PeakConnections);
        Assert.Equal(1, server.Stats.GetCommandCount(MockCommandKind.Body));
        Assert.Equal(1, server.Stats.GetCommandCount(MockCommandKind.Stat));
        Assert.True(server.Stats.BytesSent > server.Store.Files[0].Articles[0].EncodedSize);
    }

    internal static async Task<MockNntpServer> StartAsync(MockNntpOptions options, int parts = 3)
    {
        var server = new MockNntpServer(options);
        server.Store.AddGeneratedFile("small.bin", (parts * 10_000L) - 10, 10_000);
        await server.StartAsync(Ct);
        return server;
    }
}

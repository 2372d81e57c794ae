using NzbDav.MockNntp;

namespace NzbDav.Usenet.Tests.Mock;

/// <summary><see cref="MockBehavior.Down"/>: an outage drops open sessions, resets new connections, and ends when cleared.</summary>
public sealed class MockNntpDownTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Going_down_cuts_a_stalled_session_and_resets_new_connections_until_it_is_back_up()
    {
        var behavior = new MockBehavior { StallFraction = 1, StallDuration = TimeSpan.FromMinutes(5) };
        await using var server = await MockNntpBehaviorTests.StartAsync(new MockNntpOptions { Behavior = behavior });
        var id = server.Store.Files[0].Articles[0].MessageId;
        await using var stalled = await MockNntpServerTests.ConnectReadyAsync(server.Port);
        await stalled.SendAsync($"STAT <{id}>\r\n", Ct);
        // The stall has begun once the server has taken the command; then the outage starts.
        while (server.Stats.GetCommandCount(MockCommandKind.Stat) == 0)
            await Task.Delay(5, Ct);

        behavior.Down = true;

        // Cut long before the 5-minute stall would have ended (the test's own timeout guards that).
        Assert.True(await EndsAsync(stalled));
        Assert.Equal(1, server.Stats.DroppedByDown);
        Assert.True(await RefusedAsync(server.Port));
        Assert.Equal(1, server.Stats.RefusedWhileDown);
        // The cut session gives its place back, and the refused connection never took one.
        while (server.Stats.CurrentConnections > 0)
            await Task.Delay(5, Ct);
        Assert.Equal(1, server.Stats.TotalConnections);

        behavior.StallFraction = 0;
        behavior.Down = false;
        await using var back = await MockNntpServerTests.ConnectReadyAsync(server.Port);
        await back.SendAsync($"STAT <{id}>\r\n", Ct);
        Assert.StartsWith("223 ", await back.ReadLineAsync(Ct));
        Assert.Equal(1, server.Stats.RefusedWhileDown);
        Assert.Equal(1, server.Stats.DroppedByDown);
    }

    [Fact]
    public void Setting_the_same_state_twice_changes_nothing()
    {
        var behavior = new MockBehavior();
        Assert.False(behavior.Down);
        behavior.Down = true;
        behavior.Down = true;
        Assert.True(behavior.Down);
        behavior.Down = false;
        behavior.Down = false;
        Assert.False(behavior.Down);
    }

    /// <summary>
    /// True when a new connection is reset: on loopback the server's reset can beat the end of the
    /// client's connect, so a connect failing with a reset counts as well as one ended before a greeting.
    /// </summary>
    private static async Task<bool> RefusedAsync(int port)
    {
        RawNntpClient client;
        try
        {
            client = await RawNntpClient.ConnectAsync(port, Ct);
        }
        catch (System.Net.Sockets.SocketException e) when (e.SocketErrorCode == System.Net.Sockets.SocketError.ConnectionReset)
        {
            return true;
        }
        await using (client)
            return await EndsAsync(client);
    }

    /// <summary>True once the server has ended the connection: an end of stream or a reset, without a greeting or an answer.</summary>
    private static async Task<bool> EndsAsync(RawNntpClient client)
    {
        try
        {
            return await client.ReadLineAsync(Ct) is null;
        }
        catch (IOException)
        {
            return true;
        }
    }
}

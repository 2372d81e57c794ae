using Microsoft.Extensions.DependencyInjection;
using NzbDav.MockNntp;
using NzbDav.Server.Hosting;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Tests.Hosting;

public sealed class ConnectionPrewarmTests
{
    [Fact]
    public async Task Startup_opens_the_streaming_share_of_connections_and_lends_them_back_idle()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var nntp = new MockNntpServer(new MockNntpOptions { MaxConnections = 4 });
        await nntp.StartAsync(ct);
        using var data = new TempDirectory();

        // MaxConnections=4: queue keeps 1, so streaming's share is 3 however many are asked for.
        await using var server = await TestServer.StartAsync(data.Path, nntp.Port, holdQueue: true, ct, "--NzbDav:WebDav:PrewarmConnections=50");
        var prewarmer = server.Services.GetRequiredService<ConnectionPrewarmer>();
        await prewarmer.Running.WaitAsync(ct);

        Assert.Equal(3, prewarmer.Count);
        var pool = Assert.Single(server.Services.GetRequiredService<UsenetClient>().GetProviderStatus()).Pool;
        Assert.Equal(3, pool.Open);
        Assert.Equal(3, pool.Idle);
        Assert.Equal(3, pool.PeakOpen);
        Assert.Equal(0, nntp.Stats.RejectedConnections);
    }

    [Fact]
    public async Task Zero_turns_it_off()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var nntp = new MockNntpServer(new MockNntpOptions { MaxConnections = 4 });
        await nntp.StartAsync(ct);
        using var data = new TempDirectory();

        await using var server = await TestServer.StartAsync(data.Path, nntp.Port, holdQueue: true, ct, "--NzbDav:WebDav:PrewarmConnections=0");
        var prewarmer = server.Services.GetRequiredService<ConnectionPrewarmer>();

        Assert.Equal(0, prewarmer.Count);
        Assert.True(prewarmer.Running.IsCompleted);
        Assert.Equal(0, Assert.Single(server.Services.GetRequiredService<UsenetClient>().GetProviderStatus()).Pool.PeakOpen);
    }

    [Fact]
    public async Task A_provider_that_is_down_costs_one_attempt_and_the_server_still_serves()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();

        await using var server = await TestServer.StartAsync(data.Path, ClosedPort(), holdQueue: true, ct);
        await server.Services.GetRequiredService<ConnectionPrewarmer>().Running.WaitAsync(ct);

        // One failure is below the breaker's threshold: real requests still try the provider.
        var status = Assert.Single(server.Services.GetRequiredService<UsenetClient>().GetProviderStatus());
        Assert.Equal(CircuitState.Closed, status.Circuit);
        Assert.Equal(0, status.Pool.Open);
        using var health = await server.Http.GetAsync("/health", ct);
        Assert.Equal(200, (int)health.StatusCode);
    }

    [Fact]
    public async Task Without_providers_nothing_is_opened()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();

        await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct);

        Assert.Equal(0, server.Services.GetRequiredService<ConnectionPrewarmer>().Count);
    }

    private static int ClosedPort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }
}

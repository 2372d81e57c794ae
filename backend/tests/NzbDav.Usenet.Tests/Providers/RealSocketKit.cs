using System.Net;
using System.Net.Sockets;
using NzbDav.MockNntp;
using NzbDav.Usenet.Providers;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>Mock servers on port 0 and providers pointing at them, for the real-socket pool tests.</summary>
internal static class RealSocketKit
{
    public const int SegmentSize = 32 * 1024;

    public static async Task<MockNntpServer> StartServerAsync(int maxConnections, TimeSpan latency = default)
    {
        var server = new MockNntpServer(new MockNntpOptions { Port = 0, MaxConnections = maxConnections, Seed = 7 });
        server.Behavior.Latency = latency;
        server.Store.AddGeneratedFile("pool-test.bin", (12L * SegmentSize) + 777, SegmentSize);
        await server.StartAsync(Token);
        return server;
    }

    public static UsenetProviderOptions Real(string name, MockNntpServer server, int maxConnections, int priority = 0) => new()
    {
        Name = name,
        Host = "127.0.0.1",
        Port = server.Port,
        UseTls = false,
        MaxConnections = maxConnections,
        Priority = priority,
        OperationTimeout = TimeSpan.FromSeconds(20),
    };

    // A loopback port nobody listens on: connecting is refused at once.
    public static int ClosedPort()
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }
}

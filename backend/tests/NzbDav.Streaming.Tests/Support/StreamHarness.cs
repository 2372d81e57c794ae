using System.Diagnostics;
using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.Streaming.Disk;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Providers;

namespace NzbDav.Streaming.Tests.Support;

/// <summary>A UsenetClient (real sockets) over one or more mock servers, plus a stream factory with a counting buffer pool.</summary>
internal sealed class StreamHarness : IAsyncDisposable
{
    private static readonly TimeSpan IdleDeadline = TimeSpan.FromSeconds(30);

    private StreamHarness(UsenetOptions options, StreamingOptions streaming, DiskSegmentCache? disk = null)
    {
        Limiter = new GlobalOperationLimiter(LimiterOptions.CreateDefault(options.Providers));
        Client = new UsenetClient(options, new NntpConnectionFactory(NullLoggerFactory.Instance), Limiter, TimeProvider.System, NullLogger<UsenetClient>.Instance);
        Disk = disk;
        Factory = new NzbFileStreamFactory(Client, streaming, NullLoggerFactory.Instance, Pool, null, disk);
    }

    public static CancellationToken Token => TestContext.Current.CancellationToken;

    public GlobalOperationLimiter Limiter { get; }

    public UsenetClient Client { get; }

    public CountingArrayPool Pool { get; } = new();

    public NzbFileStreamFactory Factory { get; }

    /// <summary>The disk segment cache under the factory, if the test gave one.</summary>
    public DiskSegmentCache? Disk { get; }

    public static StreamHarness Create(StreamingOptions? streaming, params UsenetProviderOptions[] providers) =>
        new(new UsenetOptions { Providers = providers, BreakerFailureThreshold = 50 }, streaming ?? new StreamingOptions());

    /// <summary>As <see cref="Create"/>, with a disk segment cache (opened already) under the factory.</summary>
    public static StreamHarness CreateWithDisk(DiskSegmentCache disk, StreamingOptions? streaming, params UsenetProviderOptions[] providers) =>
        new(new UsenetOptions { Providers = providers, BreakerFailureThreshold = 50 }, streaming ?? new StreamingOptions(), disk);

    public static async Task<MockNntpServer> StartServerAsync(int? maxConnections = null, TimeSpan latency = default, TimeSpan jitter = default, string? messageIdToken = null)
    {
        var server = new MockNntpServer(new MockNntpOptions { Port = 0, MaxConnections = maxConnections, Seed = 17, MessageIdToken = messageIdToken });
        server.Behavior.Latency = latency;
        server.Behavior.Jitter = jitter;
        await server.StartAsync(Token);
        return server;
    }

    public static UsenetProviderOptions Provider(MockNntpServer server, string name = "mock", int maxConnections = 8, int priority = 0, int pipelineDepth = 4) => new()
    {
        Name = name,
        Host = "127.0.0.1",
        Port = server.Port,
        UseTls = false,
        MaxConnections = maxConnections,
        Priority = priority,
        PipelineDepth = pipelineDepth,
        OperationTimeout = TimeSpan.FromSeconds(20),
    };

    /// <summary>The NZB view of a mock file, optionally without some part numbers.</summary>
    public static NzbFile ToNzb(MockFile file, params int[] withoutNumbers) => new(
        $"\"{file.Name}\" yEnc (1/{file.Articles.Count})",
        "tests <tests@nzbdav.invalid>",
        null,
        ["alt.binaries.test"],
        file.Articles.Where(a => !withoutNumbers.Contains(a.Number)).Select(a => new NzbSegment(a.Number, a.EncodedSize, a.MessageId)));

    public Task<BufferedSegmentStream> OpenAsync(MockFile file) => Factory.OpenAsync(ToNzb(file), Token);

    /// <summary>
    /// Nothing leased or rented any more once the segment cache lets go of what it keeps (waits
    /// briefly: lease returns finish asynchronously).
    /// </summary>
    public async Task AssertAllReturnedAsync()
    {
        if (Disk?.Store is { } store)
        {
            // Writes queued for the disk hold their segments until written.
            await store.WhenIdleAsync(Token);
        }
        Factory.Cache.Clear();
        for (var i = 0; i < 200 && (Limiter.GetStats().InUse != 0 || Pool.Outstanding != 0 || PoolInUse() != 0); i++)
        {
            await Task.Delay(25, Token);
        }
        Assert.Equal(0, Pool.Outstanding);
        // Nothing the streams fetched or held is remembered after they closed (no entry leaks).
        Assert.Equal(0, Factory.Cache.Entries);
        Assert.Equal(0, Limiter.GetStats().InUse);
        Assert.Equal(0, PoolInUse());
    }

    /// <summary>
    /// Waits until <paramref name="server"/> has answered <paramref name="bodies"/> BODY commands
    /// (what the reads so far must cause), then until <paramref name="stream"/> has nothing left to
    /// fetch. A stream gives its leases back only once nothing it was asked for is queued or in
    /// flight, and a session it broke counts as closing until the server has ended it; so from then
    /// on the server's counts hold every command the reads so far could cause. The first wait
    /// matters after a read served from memory: it returns before the stream has even picked up
    /// what it queued, while no lease is held yet.
    /// </summary>
    public async Task WaitUntilIdleAsync(BufferedSegmentStream stream, MockNntpServer server, long bodies)
    {
        var started = Stopwatch.GetTimestamp();
        while (server.Stats.GetCommandCount(MockCommandKind.Body) < bodies)
        {
            Assert.True(Stopwatch.GetElapsedTime(started) < IdleDeadline,
                $"{server.Stats.GetCommandCount(MockCommandKind.Body)} of the {bodies} BODY commands answered after {IdleDeadline.TotalSeconds} s");
            await Task.Delay(10, Token);
        }
        while (stream.Statistics.LeasesHeld > 0 || Limiter.GetStats().InUse > 0 || PoolInUse() > 0 || PoolClosing() > 0)
        {
            Assert.True(Stopwatch.GetElapsedTime(started) < IdleDeadline,
                $"the stream still fetches {IdleDeadline.TotalSeconds} s after the reader stopped: {stream.Statistics.LeasesHeld} leases, {Limiter.GetStats()}");
            await Task.Delay(10, Token);
        }
    }

    private int PoolInUse() => Client.GetProviderStatus().Sum(p => p.Pool.InUse);

    private int PoolClosing() => Client.GetProviderStatus().Sum(p => p.Pool.Closing);

    public async ValueTask DisposeAsync() => await Client.DisposeAsync();
}

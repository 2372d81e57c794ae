using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Server.Live;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Testing;
using static NzbDav.Testing.Waiting;

namespace NzbDav.Server.Tests.WebUi;

/// <summary>Alone in this process: 200 readers that each may fall only 8 ticks (400 ms) behind are dropped,
/// as they should be, when a soak or a publish beside them takes both cores (CI lost one that way twice).</summary>
[CollectionDefinition(nameof(LiveFeedTests), DisableParallelization = true)]
public sealed class LiveFeedGroup;

/// <summary>
/// The dashboard's push channel over real sockets: 200 browsers get the same bytes from one
/// serialization per tick, a client that stops reading is dropped instead of buffered, and nothing
/// is sampled once nobody listens.
/// </summary>
[Collection(nameof(LiveFeedTests))]
[SlowTest("200 live-feed subscribers, alone in the process")]
public sealed class LiveFeedTests
{
    private const string Password = "correct horse battery";

    [Fact]
    public async Task Two_hundred_subscribers_share_one_serialization_per_tick_and_a_slow_one_is_dropped()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        // Accepted sockets inherit the listening socket's send buffer: a small, fixed one (no
        // autotuning up to megabytes) lets a client that never reads fill it in seconds.
        await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true,
            services => services.Configure<SocketTransportOptions>(o => o.CreateBoundListenSocket = endpoint =>
            {
                var socket = SocketTransportOptions.CreateDefaultBoundListenSocket(endpoint);
                socket.SendBufferSize = 4096;
                return socket;
            }),
            ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password, "--NzbDav:Ui:LiveInterval=00:00:00.050");
        var feed = server.Services.GetRequiredService<LiveFeed>();
        var address = server.Http.BaseAddress!;
        using var ui = new UiClient(address);
        await ui.LoginAsync("admin", Password, ct);

        // Without a session the stream is refused like any other call that needs one.
        using (var anonymous = new HttpClient { BaseAddress = address })
        using (var refused = await anonymous.GetAsync("/ui/api/live", HttpCompletionOption.ResponseHeadersRead, ct))
            Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);

        using var handler = new SocketsHttpHandler { CookieContainer = ui.Cookies, MaxConnectionsPerServer = 400 };
        using var browsers = new HttpClient(handler) { BaseAddress = address, Timeout = Timeout.InfiniteTimeSpan };
        using var stopReading = CancellationTokenSource.CreateLinkedTokenSource(ct);
        var readers = Enumerable.Range(0, 200).Select(_ => ReadFramesAsync(browsers, stopReading.Token)).ToArray();
        string State() => $"{feed.SubscriberCount} subscribers, {feed.Dropped} dropped, {feed.Ticks} ticks; frames per reader {readers.Min(r => r.Frames.Count)}–{readers.Max(r => r.Frames.Count)}, {readers.Count(r => r.Task.IsCompleted)} readers ended";
        await WaitUntilAsync(() => feed.SubscriberCount == 200 && readers.All(r => r.Frames.Count >= 5), State, ct);

        // One serialization per tick, not one per subscriber.
        var ticks = feed.Ticks;
        var serializations = feed.Serializations;
        Assert.InRange(serializations, ticks, ticks + 1);

        // And the very same bytes in every browser for the same tick.
        var common = readers.Select(r => r.Frames.Keys.ToHashSet()).Aggregate((a, b) => { a.IntersectWith(b); return a; });
        Assert.NotEmpty(common);
        foreach (var sequence in common)
            Assert.Single(readers.Select(r => r.Frames[sequence]).Distinct(StringComparer.Ordinal));
        var snapshot = JsonDocument.Parse(readers[0].Frames[common.Max()]).RootElement;
        Assert.Equal(3, snapshot.GetProperty("limiter").GetProperty("pools").GetArrayLength());

        // A client that never reads (its receive window a kilobyte) falls behind and is cut off;
        // the 200 that read are untouched.
        var slowStarted = System.Diagnostics.Stopwatch.GetTimestamp();
        using (var slow = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = 1024 })
        {
            await slow.ConnectAsync(address.Host, address.Port, ct);
            var request = $"GET /ui/api/live HTTP/1.1\r\nHost: {address.Authority}\r\nCookie: {ui.Cookies.GetCookieHeader(new Uri(address, "/ui/api/live"))}\r\n\r\n";
            await slow.SendAsync(Encoding.ASCII.GetBytes(request), SocketFlags.None, ct);
            await WaitUntilAsync(() => feed.SubscriberCount == 201, State, ct);
            await WaitUntilAsync(() => feed.Dropped >= 1, State, TimeSpan.FromSeconds(60), ct);
        }

        Assert.Equal(1, feed.Dropped);
        TestContext.Current.TestOutputHelper?.WriteLine(
            $"200 subscribers: {ticks} ticks, {serializations} serializations when all had 5 frames; by the end {feed.Ticks} ticks, {feed.Serializations} serializations; frames per subscriber {readers.Min(r => r.Frames.Count)}–{readers.Max(r => r.Frames.Count)}, "
            + $"{common.Count} ticks byte-identical in all 200; the client that never reads dropped after {System.Diagnostics.Stopwatch.GetElapsedTime(slowStarted).TotalSeconds:0.0} s");
        await WaitUntilAsync(() => feed.SubscriberCount == 200, State, ct);
        Assert.All(readers, r => Assert.False(r.Task.IsFaulted));

        // Everyone leaves: the feed goes idle and samples nothing more.
        await stopReading.CancelAsync();
        await Task.WhenAll(readers.Select(r => r.Task));
        await WaitUntilAsync(() => feed.SubscriberCount == 0 && feed.IsIdle, State, ct);
    }

    private static FrameReader ReadFramesAsync(HttpClient browsers, CancellationToken cancellationToken)
    {
        var reader = new FrameReader();
        reader.Task = Task.Run(async () =>
        {
            try
            {
                using var response = await browsers.GetAsync("/ui/api/live", HttpCompletionOption.ResponseHeadersRead, cancellationToken);
                Assert.Equal("text/event-stream", response.Content.Headers.ContentType?.MediaType);
                using var lines = new StreamReader(await response.Content.ReadAsStreamAsync(cancellationToken));
                while (await lines.ReadLineAsync(cancellationToken) is { } line)
                {
                    if (!line.StartsWith("data: ", StringComparison.Ordinal))
                        continue;
                    var json = line["data: ".Length..];
                    var sequence = JsonDocument.Parse(json).RootElement.GetProperty("sequence").GetInt64();
                    reader.Frames[sequence] = json;
                }
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                // The test is done reading.
            }
        }, CancellationToken.None);
        return reader;
    }

    private sealed class FrameReader
    {
        public System.Collections.Concurrent.ConcurrentDictionary<long, string> Frames { get; } = new();

        public Task Task { get; set; } = Task.CompletedTask;
    }
}

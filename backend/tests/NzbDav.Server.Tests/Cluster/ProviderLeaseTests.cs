using System.Diagnostics;
using System.Net;
using System.Text.Json;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Nzb;
using NzbDav.Server.Cluster;
using NzbDav.Server.Configuration;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Server.Tests.WebDav;
using NzbDav.Testing;
using NzbDav.Testing.Postgres;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Tests.Cluster;

/// <summary>
/// Nodes on one library share a provider's connection cap through lease rows in PostgreSQL; the mock
/// provider enforces the cap itself (a session over it gets 502) and counts its peak.
/// </summary>
public sealed class ProviderLeaseTests
{
    private const int Cap = 6;

    [Fact]
    public async Task Two_nodes_never_hold_more_than_the_cap_and_the_busy_one_gets_what_the_idle_one_does_not_use()
    {
        var ct = TestContext.Current.CancellationToken;
        var output = TestContext.Current.TestOutputHelper;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        await using var nntp = new MockNntpServer(new MockNntpOptions { MessageIdToken = "leases", MaxConnections = Cap });
        nntp.Behavior.Latency = TimeSpan.FromMilliseconds(40);
        await nntp.StartAsync(ct);
        var content = new byte[48 << 20];
        new Random(7).NextBytes(content);
        var file = nntp.Store.AddFile("Lease.Show.S01E01.mkv", content, 256 << 10);
        using var nzb = new MemoryStream();
        MockNzbWriter.Write(nzb, [file], "Lease.Show.S01E01", nntp.StartedAt);

        using var dataA = new TempDirectory();
        using var dataB = new TempDirectory();
        var a = await IngestionHost.StartAsync(dataA.Path, nntp.Port, ct, null, [.. database.HostArguments(), .. Node("a")]);
        await using var stopA = a;
        var b = await IngestionHost.StartAsync(dataB.Path, nntp.Port, ct, null, [.. database.HostArguments(), .. Node("b")]);
        await using var stopB = b;
        var leasesA = a.Server.Services.GetRequiredService<ProviderLeaseState>();
        var leasesB = b.Server.Services.GetRequiredService<ProviderLeaseState>();
        await using var watch = new LeaseWatch(a.Server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>(), nntp);

        // Idle: half each, every session given.
        await Waiting.WaitUntilAsync(() => leasesA.Granted("mock") == Cap / 2 && leasesB.Granted("mock") == Cap / 2,
            () => $"a {leasesA.Granted("mock")}, b {leasesB.Granted("mock")}", TimeSpan.FromSeconds(10), ct);

        var slot = await a.AddAndWaitAsync(nzb.ToArray(), "Lease.Show.S01E01.nzb", ct);
        Assert.Equal("Completed", slot.GetProperty("status").GetString());

        // A plays the whole file alone: its streams wait beyond its half, b gives back all but one.
        var mostOnA = 0;
        var started = Stopwatch.GetTimestamp();
        var reading = Task.Run(async () =>
        {
            using var response = await a.GetAsync("Lease.Show.S01E01", "Lease.Show.S01E01.mkv", ct);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Equal(content, await response.Content.ReadAsByteArrayAsync(ct));
        }, ct);
        while (!reading.IsCompleted)
        {
            mostOnA = Math.Max(mostOnA, leasesA.Granted("mock"));
            await Task.WhenAny(reading, Task.Delay(10, ct));
        }

        await reading;
        output?.WriteLine($"read in {Stopwatch.GetElapsedTime(started).TotalMilliseconds:F0} ms; a's lease reached {mostOnA} of {Cap}; leases in the library summed to at most {watch.MostGranted}; the provider saw at most {nntp.Stats.PeakConnections} sessions, refused {nntp.Stats.RejectedConnections}");
        Assert.Equal(Cap - 1, mostOnA);

        // B stops: its lease is a's at once (it gives its rows back as it leaves and says so).
        var stopped = Stopwatch.GetTimestamp();
        await b.DisposeAsync();
        await Waiting.WaitUntilAsync(() => leasesA.Granted("mock") == Cap, () => $"a {leasesA.Granted("mock")}", TimeSpan.FromSeconds(5), ct);
        output?.WriteLine($"b's share back with a {Stopwatch.GetElapsedTime(stopped).TotalMilliseconds:F0} ms after b stopped");

        Assert.True(watch.MostGranted <= Cap, $"the leases summed to {watch.MostGranted} > {Cap}");
        Assert.True(nntp.Stats.PeakConnections <= Cap, $"the provider saw {nntp.Stats.PeakConnections} sessions");
        Assert.Equal(0, nntp.Stats.RejectedConnections);
    }

    [Fact]
    public async Task A_node_without_a_lease_is_not_ready_until_one_is_free_and_a_lowered_cap_is_kept_by_every_node()
    {
        var ct = TestContext.Current.CancellationToken;
        var output = TestContext.Current.TestOutputHelper;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        await using var nntp = new MockNntpServer(new MockNntpOptions { MessageIdToken = "ready", MaxConnections = Cap });
        await nntp.StartAsync(ct);
        using var dataA = new TempDirectory();
        using var dataB = new TempDirectory();
        using var dataC = new TempDirectory();
        // The provider is added in the web UI of one node (settings the nodes share), not on their command lines.
        var logs = new LogCapture();
        await using var a = await IngestionHost.StartAsync(dataA.Path, null, logs, ct, [.. database.HostArguments(), "--Cluster:NodeName=a"]);
        await using var b = await IngestionHost.StartAsync(dataB.Path, null, logs, ct, [.. database.HostArguments(), "--Cluster:NodeName=b"]);
        var c = await IngestionHost.StartAsync(dataC.Path, null, logs, ct, [.. database.HostArguments(), "--Cluster:NodeName=c"]);
        await using var stopC = c;
        var saving = a.Server.Services.GetRequiredService<StoredSettings>();
        await saving.SaveProviderAsync(null, new UsenetProviderOptions { Name = "mock", Host = "127.0.0.1", Port = nntp.Port, UseTls = false, MaxConnections = Cap }, ct);
        var nodes = new[] { a, b, c }.Select(n => n.Server.Services.GetRequiredService<ProviderLeaseState>()).ToArray();
        await Waiting.WaitUntilAsync(() => nodes.All(n => n.Granted("mock") == 2), () => string.Join(", ", nodes.Select(n => n.Granted("mock"))), TimeSpan.FromSeconds(10), ct);
        await using var watch = new LeaseWatch(a.Server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>(), nntp);

        // The cap lowered to 2 on a: every node keeps to it within a second or two, and nobody ever held more than the old one.
        var lowered = Stopwatch.GetTimestamp();
        await saving.SaveProviderAsync("mock", new UsenetProviderOptions { Name = "mock", Host = "127.0.0.1", Port = nntp.Port, UseTls = false, MaxConnections = 2 }, ct);
        await Waiting.WaitUntilAsync(() => nodes.Sum(n => n.Granted("mock")) <= 2 && watch.LastGranted <= 2,
            () => string.Join(", ", nodes.Select(n => n.Granted("mock"))) + $"; rows {watch.LastGranted}", TimeSpan.FromSeconds(5), ct);
        output?.WriteLine($"cap 6 → 2 saved on a: kept by all three nodes after {Stopwatch.GetElapsedTime(lowered).TotalMilliseconds:F0} ms: {string.Join(", ", nodes.Select(n => n.Granted("mock")))}");

        // Three nodes, two sessions: one node holds none and says so on /ready; the others serve.
        var ready = await Task.WhenAll(new[] { a, b, c }.Select(n => ReadyAsync(n, ct)));
        Assert.Equal(2, ready.Count(r => r.Status == HttpStatusCode.OK));
        (HttpStatusCode status, string? reason) = Assert.Single(ready, r => r.Status != HttpStatusCode.OK);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, status);
        Assert.Contains("holds no provider connections", reason);

        // One of the two holders stops: the node without a lease gets its session and is ready.
        var holder = new[] { a, b, c }.First(n => n.Server.Services.GetRequiredService<ProviderLeaseState>().Granted("mock") > 0 && n != a);
        var waiting = new[] { a, b, c }.Single(n => n.Server.Services.GetRequiredService<ProviderLeaseState>().Granted("mock") == 0);
        await holder.DisposeAsync();
        await Waiting.WaitUntilAsync(() => waiting.Server.Services.GetRequiredService<ProviderLeaseState>().Granted("mock") == 1, TimeSpan.FromSeconds(5), ct);
        Assert.Equal(HttpStatusCode.OK, (await ReadyAsync(waiting, ct)).Status);

        Assert.True(watch.MostGranted <= Cap, $"the leases summed to {watch.MostGranted}");
        Assert.True(nntp.Stats.PeakConnections <= Cap);
        Assert.Equal(0, nntp.Stats.RejectedConnections);
    }

    private static string[] Node(string name) => ["--Cluster:NodeName=" + name, "--Usenet:Providers:0:MaxConnections=" + Cap];

    private static async Task<(HttpStatusCode Status, string? Reason)> ReadyAsync(IngestionHost node, CancellationToken ct)
    {
        using var response = await node.Dav.GetAsync("/ready", ct);
        var body = JsonDocument.Parse(await response.Content.ReadAsStringAsync(ct)).RootElement;
        return (response.StatusCode, body.TryGetProperty("reason", out var reason) ? reason.GetString() : null);
    }

    /// <summary>Reads the lease rows every few milliseconds: the most they ever added up to, and the last sum.</summary>
    private sealed class LeaseWatch : IAsyncDisposable
    {
        private readonly CancellationTokenSource _stop = new();
        private readonly Task _loop;

        public LeaseWatch(IDbContextFactory<NzbDavDbContext> factory, MockNntpServer nntp)
        {
            _loop = Task.Run(async () =>
            {
                while (!_stop.IsCancellationRequested)
                {
                    try
                    {
                        await using var context = await factory.CreateDbContextAsync(_stop.Token);
                        var sum = await context.ProviderLeases.SumAsync(l => l.Granted, _stop.Token);
                        LastGranted = sum;
                        MostGranted = Math.Max(MostGranted, sum);
                        await Task.Delay(5, _stop.Token);
                    }
                    catch (OperationCanceledException)
                    {
                        return;
                    }
                }
            });
        }

        public int MostGranted { get; private set; }

        public int LastGranted { get; private set; } = int.MaxValue;

        public async ValueTask DisposeAsync()
        {
            await _stop.CancelAsync();
            await _loop;
            _stop.Dispose();
        }
    }
}

using System.Net;
using System.Text.Json;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;
using NzbDav.Testing.Postgres;

namespace NzbDav.Server.Tests.Cluster;

/// <summary>The PostgreSQL server stopped and started under a running node (a server of the test's own).</summary>
public sealed class StoreOutageTests(MockProviderFixture provider)
{
    [Fact]
    [SlowTest("makes, stops and starts a PostgreSQL cluster of its own")]
    public async Task A_node_says_the_store_is_away_answers_503_keeps_open_streams_and_recovers_by_itself()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var postgres = await PrivatePostgres.StartAsync(ct);
        using var data = new TempDirectory();
        var content = new byte[400_000];
        new Random(3401).NextBytes(content);
        var file = provider.Store.AddFile("Outage.Film.2026.mkv", content, 100_000);
        await using var host = await IngestionHost.StartAsync(data.Path, provider.Port, ct, null,
            "--Database:Provider=postgres", "--Database:ConnectionString=" + postgres.ConnectionString,
            "--Cluster:HeartbeatInterval=00:00:00.2", "--Cluster:NodeTimeout=00:00:01");
        var nzoId = (await host.AddAndWaitAsync(provider.Nzb("Outage.Film.2026", file), "Outage.Film.2026.nzb", ct)).GetProperty("nzo_id").GetString()!;
        using var anonymous = new HttpClient { BaseAddress = host.Dav.BaseAddress };
        Assert.Equal(HttpStatusCode.OK, (await anonymous.GetAsync("/ready", ct)).StatusCode);

        // A player is in the middle of the file when the database goes away.
        using var playing = await host.Dav.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/content/tv/Outage.Film.2026/Outage.Film.2026.mkv"), HttpCompletionOption.ResponseHeadersRead, ct);
        var body = await playing.Content.ReadAsStreamAsync(ct);
        var head = new byte[1000];
        await body.ReadExactlyAsync(head, ct);
        await postgres.StopAsync(ct);

        var ready = await Waiting.PollAsync(token => anonymous.GetAsync("/ready", token), r => r.StatusCode == HttpStatusCode.ServiceUnavailable,
            "/ready to say the node cannot serve", TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(50), r => r.StatusCode.ToString(), ct);
        var reason = JsonDocument.Parse(await ready.Content.ReadAsStringAsync(ct)).RootElement.GetProperty("reason").GetString()!;
        Assert.Contains($"the library store (PostgreSQL database 'postgres' on 127.0.0.1:{postgres.Port} as 'postgres') cannot be reached since ", reason);
        var health = JsonDocument.Parse(await anonymous.GetStringAsync("/health", ct)).RootElement;
        Assert.Equal("degraded", health.GetProperty("status").GetString());
        Assert.Equal("unreachable", health.GetProperty("store").GetProperty("state").GetString());

        // A new request needs the library: 503 with a time to come back, never a 500.
        using (var refused = await host.GetAsync("Outage.Film.2026", "Outage.Film.2026.mkv", ct, "bytes=0-99"))
        {
            Assert.Equal(HttpStatusCode.ServiceUnavailable, refused.StatusCode);
            Assert.Equal(TimeSpan.FromSeconds(5), refused.Headers.RetryAfter?.Delta);
        }

        // The stream that was open plays to its end, every byte true.
        var rest = new MemoryStream();
        await body.CopyToAsync(rest, ct);
        Assert.Equal(content, head.Concat(rest.ToArray()).ToArray());

        await postgres.StartAgainAsync(ct);
        await Waiting.PollAsync(token => anonymous.GetAsync("/ready", token), r => r.StatusCode == HttpStatusCode.OK,
            "/ready again once PostgreSQL is back", TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(50), r => r.StatusCode.ToString(), ct);
        using (var again = await host.GetAsync("Outage.Film.2026", "Outage.Film.2026.mkv", ct, "bytes=1000-1099"))
        {
            Assert.Equal(HttpStatusCode.PartialContent, again.StatusCode);
            Assert.Equal(content.AsSpan(1000, 100).ToArray(), await again.Content.ReadAsByteArrayAsync(ct));
        }

        var history = (await host.Server.GetAsync("mode=history&apikey=" + TestServer.ApiKey, ct)).GetProperty("history");
        Assert.Equal(nzoId, Assert.Single(history.GetProperty("slots").EnumerateArray()).GetProperty("nzo_id").GetString());
    }

    [Fact]
    [SlowTest("makes, stops and starts a PostgreSQL cluster of its own, and a real server process")]
    public async Task A_node_started_while_the_store_is_down_says_so_and_starts_once_it_is_back()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var postgres = await PrivatePostgres.StartAsync(ct);
        await postgres.StopAsync(ct);
        using var data = new TempDirectory();
        // The real executable: the waiting happens before the host is built.
        await using var node = await Hosting.ServerProcess.StartAsync(data.Path, provider.Port,
            ["--Database:Provider=postgres", "--Database:ConnectionString=" + postgres.ConnectionString, "--Cluster:NodeName=late"], ct);

        using (var ready = await node.Http.GetAsync("/ready", ct))
        {
            Assert.Equal(HttpStatusCode.ServiceUnavailable, ready.StatusCode);
            var body = JsonDocument.Parse(await ready.Content.ReadAsStringAsync(ct)).RootElement;
            Assert.Equal("late", body.GetProperty("node").GetString());
            Assert.Contains($"the library store (PostgreSQL database 'postgres' on 127.0.0.1:{postgres.Port} as 'postgres') cannot be reached since ", body.GetProperty("reason").GetString());
        }

        var health = JsonDocument.Parse(await node.Http.GetStringAsync("/health", ct)).RootElement;
        Assert.Equal("degraded", health.GetProperty("status").GetString());
        Assert.Equal("unreachable", health.GetProperty("store").GetProperty("state").GetString());
        using (var api = await node.Http.GetAsync("/api?mode=version", ct))
        {
            Assert.Equal(HttpStatusCode.ServiceUnavailable, api.StatusCode);
            Assert.Equal(TimeSpan.FromSeconds(5), api.Headers.RetryAfter?.Delta);
        }

        Assert.Contains("waits for its library store", node.Output, StringComparison.Ordinal);

        // PostgreSQL comes up: the node starts by itself and serves.
        await postgres.StartAgainAsync(ct);
        await Waiting.PollAsync(async token =>
        {
            try
            {
                using var response = await node.Http.GetAsync("/ready", token);
                return response.StatusCode;
            }
            catch (HttpRequestException)
            {
                return HttpStatusCode.BadGateway; // between the stand-in and the server
            }
        }, status => status == HttpStatusCode.OK, "/ready once PostgreSQL is up", TimeSpan.FromSeconds(60), TimeSpan.FromMilliseconds(100), s => s.ToString(), ct);
        var version = await node.ApiAsync("mode=version", ct);
        Assert.False(string.IsNullOrEmpty(version.GetProperty("version").GetString()));
    }
}

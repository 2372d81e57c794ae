using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Sockets;
using System.Text.Json;
using Npgsql;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Nzb;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Deployment;
using NzbDav.Server.Tests.Hosting;
using NzbDav.Server.Tests.WebUi;
using NzbDav.Testing;
using NzbDav.Testing.Postgres;

namespace NzbDav.Server.Tests.Cluster;

/// <summary>
/// The scale-out targets end to end: three real node processes on one PostgreSQL library behind
/// Debian's haproxy with the shipped configuration, one mock provider that enforces a cap of 20
/// sessions and counts them; 12 players, a burst of 50 NZBs and a health sweep at once, and one node
/// killed with SIGKILL in the middle.
/// </summary>
public sealed class ClusterTargetTests
{
    private const int Cap = 20;
    private const string Admin = "cluster-target-admin-1";
    private const string DavUser = "player";
    private const string DavPassword = "cluster-target-dav-1";

    [Fact]
    [SlowTest("three real node processes, haproxy, 12 paced players and a kill -9")]
    public async Task Three_nodes_keep_a_cap_of_20_under_12_streams_50_nzbs_and_a_sweep_and_a_killed_node_is_not_noticed()
    {
        var ct = TestContext.Current.CancellationToken;
        var output = TestContext.Current.TestOutputHelper;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        await using var nntp = new MockNntpServer(new MockNntpOptions { MessageIdToken = "target", MaxConnections = Cap });
        nntp.Behavior.Latency = TimeSpan.FromMilliseconds(10);
        await nntp.StartAsync(ct);

        // Four films of 40 MB for the players (more than sockets and haproxy buffer, so a player is still
        // reading from its node when it dies), fifty episodes for the burst.
        var films = Enumerable.Range(1, 4).Select(i => Post(nntp, $"Target.Film.{i}", 40 << 20, 512 << 10, i)).ToList();
        var episodes = Enumerable.Range(1, 50).Select(i => Post(nntp, $"Target.Show.S01E{i:D2}", 200_000, 100_000, 100 + i)).ToList();

        using var dataA = new TempDirectory();
        using var dataB = new TempDirectory();
        using var dataC = new TempDirectory();
        string[] Node(string name) =>
        [
            .. database.HostArguments(), "--Cluster:NodeName=" + name, "--Usenet:Providers:0:MaxConnections=" + Cap,
            "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin,
            "--NzbDav:WebDav:User=" + DavUser, "--NzbDav:WebDav:Password=" + DavPassword,
        ];
        await using var a = await ServerProcess.StartAsync(dataA.Path, nntp.Port, Node("node-a"), ct);
        await using var b = await ServerProcess.StartAsync(dataB.Path, nntp.Port, Node("node-b"), ct);
        await using var c = await ServerProcess.StartAsync(dataC.Path, nntp.Port, Node("node-c"), ct);
        var nodes = new Dictionary<string, ServerProcess> { ["node-a"] = a, ["node-b"] = b, ["node-c"] = c };

        using var config = new TempDirectory();
        var port = HaproxyConfig.FreePort();
        var path = Path.Combine(config.Path, "haproxy.cfg");
        await File.WriteAllTextAsync(path, HaproxyConfig.Configure(await File.ReadAllTextAsync(Repository.PathOf("docker/haproxy.cfg"), ct), port,
            a.Http.BaseAddress!.Port, b.Http.BaseAddress!.Port, c.Http.BaseAddress!.Port), ct);
        using var haproxy = Process.Start(new ProcessStartInfo("haproxy", ["-db", "-f", path]) { RedirectStandardOutput = true, RedirectStandardError = true })!;
        try
        {
            // A player's socket keeps a small receive buffer, as a paced player's does: without it the
            // kernel would take most of a film ahead of the pace, and a kill would go unseen.
            using var handler = new SocketsHttpHandler
            {
                ConnectCallback = async (context, token) =>
                {
                    var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, ReceiveBufferSize = 256 << 10 };
                    try
                    {
                        await socket.ConnectAsync(context.DnsEndPoint, token);
                        return new NetworkStream(socket, ownsSocket: true);
                    }
                    catch
                    {
                        socket.Dispose();
                        throw;
                    }
                },
            };
            using var front = new HttpClient(handler) { BaseAddress = new Uri($"http://127.0.0.1:{port}"), Timeout = TimeSpan.FromSeconds(30) };
            front.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic", Convert.ToBase64String(System.Text.Encoding.UTF8.GetBytes($"{DavUser}:{DavPassword}")));
            await Waiting.PollAsync(token => AllReady(front, token), ready => ready, "haproxy up with the three nodes ready", TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(200), null, ct);

            // The films are in the library before the players start.
            var filmIds = new List<string>();
            foreach (var film in films)
                filmIds.Add(await AddAsync(front, film, ct));
            await WaitCompletedAsync(front, filmIds, ct);

            await using var watch = new CapWatch(database.ConnectionString, nntp);
            var started = Stopwatch.GetTimestamp();

            // 12 players through haproxy, three per film, paced like playback, retrying from where they are as rclone does.
            var players = Enumerable.Range(0, 12).Select(i => new Player(front, films[i % 4], 4_000_000)).ToList();
            var playing = players.Select(p => p.RunAsync(ct)).ToList();

            // A health sweep: every file due now, and a health setting saved in the UI wakes every node's scheduler.
            var sweepAt = await ScalarAsync<DateTime>(database.ConnectionString, "SELECT now()", ct);
            await ExecuteAsync(database.ConnectionString, """UPDATE "FileHealth" SET "NextCheckAt" = now() - interval '1 minute'""", ct);
            using (var ui = new UiClient(front.BaseAddress))
            {
                await ui.LoginAsync("admin", Admin, ct);
                using var saved = await ui.PostAsync("/ui/api/settings", new { values = new Dictionary<string, string> { ["Health:MaxConsecutiveMissing"] = "9" } }, ct);
                Assert.True(saved.StatusCode == HttpStatusCode.OK, await saved.Content.ReadAsStringAsync(ct));
            }

            // The burst, spread over the nodes by haproxy's round robin: accepted at once, ingested over the next seconds, while
            // the kill comes.
            var burst = await Task.WhenAll(episodes.Select(e => AddAsync(front, e, ct)));

            // Once every player is going, the node serving the first one is killed.
            await Waiting.WaitUntilAsync(() => players.All(p => p.Received > 2_000_000), TimeSpan.FromSeconds(60), ct, "every player under way");
            var victimName = players[0].Nodes.First();
            var victim = nodes[victimName];
            var victimId = await ScalarAsync<Guid>(database.ConnectionString, $"""SELECT "Id" FROM "Nodes" WHERE "Name" = '{victimName}'""", ct);
            var victimLease = await ScalarAsync<int>(database.ConnectionString, $"""SELECT COALESCE(SUM("Granted"), 0)::int FROM "ProviderLeases" WHERE "NodeId" = '{victimId}'""", ct);
            var atKill = players.Select(p => p.Received >> 20).ToList();
            var unfinished = await ScalarAsync<long>(database.ConnectionString, """SELECT COUNT(*) FROM "Jobs" WHERE "Status" IN (0, 2)""", ct);
            var killedAt = Stopwatch.GetTimestamp();
            await victim.KillAsync(ct);
            var leaseBack = await Waiting.PollAsync(async token =>
                await ScalarAsync<long>(database.ConnectionString,
                    $"""SELECT CASE WHEN EXISTS (SELECT 1 FROM "ProviderLeases" WHERE "NodeId" = '{victimId}') THEN 0 ELSE COALESCE(SUM("Granted"), 0) END FROM "ProviderLeases" """, token),
                granted => granted == Cap, "the killed node's lease granted to the others", TimeSpan.FromSeconds(15), TimeSpan.FromMilliseconds(50), g => $"{g} granted", ct);
            var leaseBackAfter = Stopwatch.GetElapsedTime(killedAt);

            await Task.WhenAll(playing);
            await WaitCompletedAsync(front, burst, ct);
            var elapsed = Stopwatch.GetElapsedTime(started);

            // Every job Completed exactly once: one row each, one folder and one file, no second copy.
            var jobs = await ScalarAsync<long>(database.ConnectionString, """SELECT COUNT(*) FROM "Jobs" WHERE "Status" = 3""", ct);
            var duplicates = await ScalarAsync<long>(database.ConnectionString, """SELECT COUNT(*) FROM (SELECT "JobId" FROM "DavItems" WHERE "JobId" IS NOT NULL GROUP BY "JobId" HAVING COUNT(*) <> 2) AS d""", ct);
            // The films were in the library before the sweep: each checked again by it, those the
            // killed node had taken by the others.
            var files = films.Count;
            var swept = await Waiting.PollAsync(token => ScalarAsync<long>(database.ConnectionString,
                    $"""SELECT COUNT(*) FROM "FileHealth" h JOIN "Jobs" j ON j."Id" = h."JobId" WHERE j."Name" LIKE 'Target.Film.%' AND h."LastCheckedAt" > '{sweepAt:O}' AND h."CheckClaimedBy" IS NULL""", token),
                n => n == files, "every film checked by the sweep", TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(200), n => $"{n} of {files}", ct);
            output?.WriteLine($"""
                12 players (40 MB each at 4 MB/s), 50 NZBs and a health sweep on 3 nodes in {elapsed.TotalSeconds:F1} s
                provider: peak {nntp.Stats.PeakConnections} sessions of {Cap} (its own count), refused {nntp.Stats.RejectedConnections}; leases summed to at most {watch.MostGranted}
                {victimName} killed {Stopwatch.GetElapsedTime(started, killedAt).TotalSeconds:F1} s in (it held {victimLease}; players had MB {string.Join(",", atKill)}; {unfinished} jobs queued or being ingested): its lease granted to the others after {leaseBackAfter.TotalMilliseconds:F0} ms
                players: {string.Join("; ", players.Select(p => $"{string.Join("→", p.Nodes)} {p.Retries} retr."))}
                jobs Completed: {jobs}; jobs with other than one folder and one file: {duplicates}; films checked by the sweep: {swept} of {files}
                """);

            Assert.True(nntp.Stats.PeakConnections <= Cap, $"the provider saw {nntp.Stats.PeakConnections} sessions at once");
            Assert.Equal(0, nntp.Stats.RejectedConnections);
            Assert.True(watch.MostGranted <= Cap, $"the leases summed to {watch.MostGranted}");
            Assert.True(leaseBackAfter < TimeSpan.FromSeconds(5), $"{leaseBackAfter.TotalMilliseconds:F0} ms");
            Assert.Equal(Cap, leaseBack);
            Assert.All(players, p => Assert.True(p.Verified, "a player's bytes differ from the posted file"));
            Assert.Contains(players, p => p.Nodes.Count > 1); // at least the first player went on on another node
            Assert.Equal(54, jobs);
            Assert.Equal(0, duplicates);
            Assert.Equal(files, swept);
        }
        finally
        {
            haproxy.Kill();
            await haproxy.WaitForExitAsync(CancellationToken.None);
        }
    }

    private sealed record Posted(string Title, byte[] Content, byte[] Nzb)
    {
        public string Path => $"/content/tv/{Title}/{Title}.mkv";
    }

    private static Posted Post(MockNntpServer nntp, string title, int size, int segment, int seed)
    {
        var content = new byte[size];
        new Random(seed).NextBytes(content);
        var file = nntp.Store.AddFile(title + ".mkv", content, segment);
        using var nzb = new MemoryStream();
        MockNzbWriter.Write(nzb, [file], title, nntp.StartedAt);
        return new Posted(title, content, nzb.ToArray());
    }

    /// <summary>A player reading a whole file at about <c>rate</c> bytes/s; after a broken response it asks for the rest (rclone's retries).</summary>
    private sealed class Player(HttpClient front, Posted film, int rate)
    {
        private readonly byte[] _received = new byte[film.Content.Length];
        private int _length;
        private long _count;

        public List<string> Nodes { get; } = [];

        public int Retries { get; private set; }

        public long Received => Interlocked.Read(ref _count);

        public bool Verified => _length == film.Content.Length && _received.AsSpan().SequenceEqual(film.Content);

        public async Task RunAsync(CancellationToken ct)
        {
            var buffer = new byte[64 << 10];
            var clock = Stopwatch.StartNew();
            while (_length < film.Content.Length)
            {
                try
                {
                    using var request = new HttpRequestMessage(HttpMethod.Get, film.Path);
                    request.Headers.Range = new RangeHeaderValue(_length, null);
                    using var response = await front.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, ct);
                    if (response.StatusCode != HttpStatusCode.PartialContent)
                        throw new HttpRequestException($"{(int)response.StatusCode}");
                    var node = response.Headers.GetValues("X-NzbDav-Node").Single();
                    if (Nodes.LastOrDefault() != node)
                        Nodes.Add(node);
                    await using var body = await response.Content.ReadAsStreamAsync(ct);
                    int read;
                    while ((read = await body.ReadAsync(buffer.AsMemory(0, Math.Min(buffer.Length, _received.Length - _length)), ct)) > 0)
                    {
                        buffer.AsSpan(0, read).CopyTo(_received.AsSpan(_length));
                        _length += read;
                        Interlocked.Add(ref _count, read);
                        var ahead = TimeSpan.FromSeconds((double)_length / rate) - clock.Elapsed;
                        if (ahead > TimeSpan.Zero)
                            await Task.Delay(ahead, ct);
                    }
                }
                catch (Exception ex) when (ex is HttpRequestException or IOException && !ct.IsCancellationRequested)
                {
                    Retries++;
                    Assert.True(Retries < 50, $"{film.Title}: gave up after {Retries} tries: {ex.Message}");
                    await Task.Delay(200, ct);
                }
            }
        }
    }

    /// <summary>Sums the lease rows every few milliseconds: the most they ever added up to.</summary>
    private sealed class CapWatch : IAsyncDisposable
    {
        private readonly CancellationTokenSource _stop = new();
        private readonly Task _loop;

        public CapWatch(string connectionString, MockNntpServer nntp)
        {
            _loop = Task.Run(async () =>
            {
                while (!_stop.IsCancellationRequested)
                {
                    try
                    {
                        MostGranted = Math.Max(MostGranted, await ScalarAsync<int>(connectionString, """SELECT COALESCE(SUM("Granted"), 0)::int FROM "ProviderLeases" """, _stop.Token));
                        await Task.Delay(10, _stop.Token);
                    }
                    catch (OperationCanceledException)
                    {
                        return;
                    }
                }
            });
        }

        public int MostGranted { get; private set; }

        public async ValueTask DisposeAsync()
        {
            await _stop.CancelAsync();
            await _loop;
            _stop.Dispose();
        }
    }

    private static async Task<bool> AllReady(HttpClient front, CancellationToken ct)
    {
        var seen = new HashSet<string>();
        for (var i = 0; i < 6; i++)
        {
            try
            {
                using var response = await front.GetAsync("/api?mode=version", ct);
                if (response.Headers.TryGetValues("X-NzbDav-Node", out var node))
                    seen.Add(node.Single());
            }
            catch (HttpRequestException)
            {
            }
        }

        return seen.Count == 3;
    }

    private static async Task<string> AddAsync(HttpClient front, Posted posted, CancellationToken ct)
    {
        using var form = new MultipartFormDataContent();
        var file = new ByteArrayContent(posted.Nzb);
        file.Headers.ContentType = new MediaTypeHeaderValue("application/x-nzb");
        form.Add(file, "name", posted.Title + ".nzb");
        using var response = await front.PostAsync($"/api?mode=addfile&cat=tv&output=json&apikey={TestServer.ApiKey}", form, ct);
        response.EnsureSuccessStatusCode();
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync(ct)).RootElement.GetProperty("nzo_ids")[0].GetString()!;
    }

    private static Task<int> WaitCompletedAsync(HttpClient front, IReadOnlyCollection<string> ids, CancellationToken ct) =>
        Waiting.PollAsync(async token =>
        {
            using var response = await front.GetAsync($"/api?mode=history&limit=1000&output=json&apikey={TestServer.ApiKey}", token);
            if (!response.IsSuccessStatusCode)
                return -1;
            var slots = JsonDocument.Parse(await response.Content.ReadAsStringAsync(token)).RootElement.GetProperty("history").GetProperty("slots");
            var failed = slots.EnumerateArray().Where(s => ids.Contains(s.GetProperty("nzo_id").GetString()) && s.GetProperty("status").GetString() == "Failed").ToList();
            Assert.True(failed.Count == 0, "failed: " + string.Join(", ", failed.Select(s => s.GetProperty("fail_message").GetString())));
            return slots.EnumerateArray().Count(s => ids.Contains(s.GetProperty("nzo_id").GetString()) && s.GetProperty("status").GetString() == "Completed");
        }, done => done == ids.Count, $"{ids.Count} jobs Completed", TimeSpan.FromSeconds(120), TimeSpan.FromMilliseconds(250), done => $"{done} Completed", ct);

    private static async Task ExecuteAsync(string connectionString, string sql, CancellationToken ct)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(ct);
        await using var command = new NpgsqlCommand(sql, connection);
        await command.ExecuteNonQueryAsync(ct);
    }

    private static async Task<T> ScalarAsync<T>(string connectionString, string sql, CancellationToken ct)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(ct);
        await using var command = new NpgsqlCommand(sql, connection);
        return (T)(await command.ExecuteScalarAsync(ct))!;
    }
}

using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Deployment;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;
using NzbDav.Testing.Postgres;

namespace NzbDav.Server.Tests.Cluster;

/// <summary>Debian's haproxy with the shipped docker/haproxy.cfg (its servers pointed at two test nodes) in front of two nodes on one library.</summary>
public sealed class LoadBalancerTests(MockProviderFixture provider)
{
    [Fact]
    public async Task Paths_stick_to_a_node_the_api_goes_to_any_and_a_reader_whose_node_stops_gets_the_rest_from_the_other()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        var content = new byte[600_000];
        new Random(3402).NextBytes(content);
        var file = provider.Store.AddFile("Balanced.Show.S01E01.mkv", content, 100_000);
        using var dataA = new TempDirectory();
        using var dataB = new TempDirectory();
        var a = await IngestionHost.StartAsync(dataA.Path, provider.Port, ct, null, [.. database.HostArguments(), "--Cluster:NodeName=node-a"]);
        await using var stopA = a;
        var b = await IngestionHost.StartAsync(dataB.Path, provider.Port, ct, null, [.. database.HostArguments(), "--Cluster:NodeName=node-b"]);
        await using var stopB = b;
        await a.AddAndWaitAsync(provider.Nzb("Balanced.Show.S01E01", file), "Balanced.Show.S01E01.nzb", ct);

        using var config = new TempDirectory();
        var port = HaproxyConfig.FreePort();
        var path = Path.Combine(config.Path, "haproxy.cfg");
        await File.WriteAllTextAsync(path, HaproxyConfig.Configure(await File.ReadAllTextAsync(Repository.PathOf("docker/haproxy.cfg"), ct), port, a.Dav.BaseAddress!.Port, b.Dav.BaseAddress!.Port), ct);
        using var haproxy = Process.Start(new ProcessStartInfo("haproxy", ["-db", "-f", path]) { RedirectStandardOutput = true, RedirectStandardError = true })!;
        try
        {
            using var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}") };
            client.DefaultRequestHeaders.Authorization = a.Dav.DefaultRequestHeaders.Authorization;
            // Both nodes pass HAProxy's /ready check before the test goes on.
            var seen = new HashSet<string>();
            await Waiting.PollAsync(async token =>
            {
                Assert.False(haproxy.HasExited, "haproxy stopped: " + (haproxy.HasExited ? await haproxy.StandardError.ReadToEndAsync(token) : ""));
                try
                {
                    using var response = await client.GetAsync("/api?mode=version", token);
                    if (response.Headers.TryGetValues("X-NzbDav-Node", out var node))
                        seen.Add(node.Single());
                }
                catch (HttpRequestException)
                {
                    // Not listening yet.
                }

                return seen.Count;
            }, count => count == 2, "the SABnzbd API answered by both nodes in turn", TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(100), count => $"{count} node(s)", ct);

            const string File = "/content/tv/Balanced.Show.S01E01/Balanced.Show.S01E01.mkv";
            async Task<(byte[] Bytes, string Node)> ReadAsync(long from, long to)
            {
                using var request = new HttpRequestMessage(HttpMethod.Get, File);
                request.Headers.Range = new RangeHeaderValue(from, to);
                using var response = await client.SendAsync(request, ct);
                Assert.Equal(HttpStatusCode.PartialContent, response.StatusCode);
                return (await response.Content.ReadAsByteArrayAsync(ct), response.Headers.GetValues("X-NzbDav-Node").Single());
            }

            // The file's path always lands on one node (its segment cache stays warm).
            var first = await ReadAsync(0, 299_999);
            Assert.Equal(content.AsSpan(0, 300_000).ToArray(), first.Bytes);
            for (var i = 0; i < 3; i++)
                Assert.Equal(first.Node, (await ReadAsync(i * 1000, (i * 1000) + 999)).Node);

            // That node stops; the player asks for the rest, retrying as rclone does, and gets it from the other node.
            await (first.Node == "node-a" ? a : b).DisposeAsync();
            var rest = await Waiting.PollAsync(async token =>
            {
                try
                {
                    return await ReadAsync(300_000, content.Length - 1);
                }
                catch (Exception ex) when (ex is HttpRequestException or Xunit.Sdk.XunitException)
                {
                    return (Bytes: Array.Empty<byte>(), Node: "");
                }
            }, r => r.Bytes.Length > 0, "the rest of the file through HAProxy", TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(200), r => r.Node, ct);
            Assert.NotEqual(first.Node, rest.Node);
            Assert.Equal(content.AsSpan(300_000).ToArray(), rest.Bytes);
        }
        finally
        {
            haproxy.Kill();
            await haproxy.WaitForExitAsync(CancellationToken.None);
        }
    }
}

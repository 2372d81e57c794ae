using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.MockNntp;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Tests.Nntp;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>
/// The cap as the server counts it: a connection the client broke still holds a server slot until
/// the server has noticed the close, so its replacement must not connect before that.
/// </summary>
public sealed class ServerSideCapTests
{
    private const int Cap = 4;
    private const int SegmentSize = 128 * 1024;

    [Fact]
    public async Task Breaking_connections_mid_body_under_load_never_makes_the_server_refuse_one()
    {
        // A paced server answers slowly, so a body is always mid-flight when its reader gives up,
        // and the server only notices the hang-up between two paced writes.
        var behavior = new MockBehavior { BandwidthBytesPerSecond = 512 * 1024 };
        await using var server = new MockNntpServer(new MockNntpOptions { MaxConnections = Cap, Seed = 11, Behavior = behavior });
        var file = server.Store.AddGeneratedFile("breaks.bin", 16L * SegmentSize, SegmentSize);
        await server.StartAsync(Token);
        var provider = new UsenetProviderOptions
        {
            Name = "capped",
            Host = "127.0.0.1",
            Port = server.Port,
            UseTls = false,
            MaxConnections = Cap,
            PipelineDepth = 4,
            OperationTimeout = TimeSpan.FromSeconds(30),
            // Generous, so a slow machine never turns a pending close into a forced one.
            CloseTimeout = TimeSpan.FromSeconds(20),
        };
        await using var pool = new ProviderConnectionPool(provider, new NntpConnectionFactory(NullLoggerFactory.Instance), TimeProvider.System, NullLogger.Instance);
        var broken = 0;
        var failures = new List<Exception>();

        async Task Requester(int seed)
        {
            for (var round = 0; round < 6; round++)
            {
                try
                {
                    await using var lease = await pool.RentAsync(Token);
                    using var giveUp = CancellationTokenSource.CreateLinkedTokenSource(Token);
                    var first = new RecordingBodyTarget();
                    var bodies = Enumerable.Range(0, lease.Connection.PipelineDepth)
                        .Select(i => lease.Connection.BodyAsync(file.Articles[(seed + round + i) % file.Articles.Count].MessageId, i == 0 ? first : new RecordingBodyTarget(), giveUp.Token))
                        .ToArray();
                    await first.FirstAdvance.WaitAsync(Token);
                    await giveUp.CancelAsync(); // mid-body: the connection breaks
                    foreach (var body in bodies)
                    {
                        await Assert.ThrowsAnyAsync<Exception>(() => body);
                    }

                    Assert.False(lease.Connection.IsUsable);
                    Interlocked.Increment(ref broken);
                }
                catch (Exception error) when (error is not OperationCanceledException || !Token.IsCancellationRequested)
                {
                    lock (failures)
                    {
                        failures.Add(error);
                    }
                }
            }
        }

        await Task.WhenAll(Enumerable.Range(0, 3 * Cap).Select(seed => Task.Run(() => Requester(seed), Token)));

        TestContext.Current.TestOutputHelper?.WriteLine(
            $"broken mid-body: {broken}; failures: {failures.Count} ({string.Join("; ", failures.Select(f => f.Message).Distinct())}); " +
            $"server accepted {server.Stats.TotalConnections}, peak {server.Stats.PeakConnections}/{Cap}, rejected {server.Stats.RejectedConnections}; pool peak {pool.GetStats().PeakOpen}");
        Assert.Empty(failures);
        Assert.Equal(3 * Cap * 6, broken);
        Assert.Equal(0, server.Stats.RejectedConnections);
        Assert.InRange(server.Stats.PeakConnections, 1, Cap);

        // The pool still works after all that: one full body, verified byte for byte.
        await using (var lease = await pool.RentAsync(Token))
        {
            var article = file.Articles[5];
            var target = new RecordingBodyTarget();
            await lease.Connection.BodyAsync(article.MessageId, target, Token);
            Assert.Equal(file.ReadExpected(article.PartBegin, article.PartSize), target.Data);
        }
    }
}

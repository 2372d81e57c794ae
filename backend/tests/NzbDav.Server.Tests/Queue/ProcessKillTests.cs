using NzbDav.MockNntp;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Hosting;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.Queue;

/// <summary>The server process killed mid-ingestion and started again on the same data directory loses nothing.</summary>
[SlowTest("starts, kills and restarts the server process over a 2 s provider")]
public sealed class ProcessKillTests(ITestOutputHelper output)
{
    [Fact]
    public async Task Killing_the_process_mid_ingestion_loses_and_duplicates_nothing()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        using var work = new TempDirectory();
        await using var nntp = new MockNntpServer();
        await nntp.StartAsync(ct);
        var (nzb, _) = await ObfuscatedRelease.PostAsync(nntp, work.Path, ct);
        // Slow enough that the kill lands while the first job is being ingested and the rest wait.
        nntp.Behavior.Latency = TimeSpan.FromSeconds(2);

        string[] names = ["Killed One", "Killed Two", "Killed Three"];
        var ids = new List<string>();
        await using (var first = await ServerProcess.StartAsync(data.Path, nntp.Port, ct))
        {
            try
            {
                foreach (var name in names)
                    ids.Add(await first.AddFileAsync(nzb, name + ".nzb", ct));
                await WaitForStatusAsync(first, ids[0], "Downloading", ct);
                await first.KillAsync(ct);
            }
            finally
            {
                output.WriteLine("first process:" + Environment.NewLine + first.Output);
            }
        }

        nntp.Behavior.Latency = TimeSpan.Zero;
        await using var second = await ServerProcess.StartAsync(data.Path, nntp.Port, ct);
        try
        {
            var slots = await second.WaitForHistoryAsync(ids.Count, ct);
            // The kill landed while the first job was being ingested.
            Assert.Contains("Resuming 1 job(s) interrupted during ingestion", second.Output);
            Assert.Equal(ids.Order(), slots.Select(s => s.GetProperty("nzo_id").GetString()!).Order());
            Assert.All(slots, slot =>
            {
                Assert.Equal("Completed", slot.GetProperty("status").GetString());
                Assert.Equal(ObfuscatedRelease.VideoSize, slot.GetProperty("bytes").GetInt64());
            });
            Assert.Equal(names.Select(n => "/mnt/nzbdav/completed/tv/" + n).Order(), slots.Select(s => s.GetProperty("storage").GetString()!).Order());
            var queue = (await second.ApiAsync("mode=queue", ct)).GetProperty("queue");
            Assert.Equal(0, queue.GetProperty("noofslots_total").GetInt32());
        }
        finally
        {
            output.WriteLine("second process:" + Environment.NewLine + second.Output);
        }
    }

    private static async Task WaitForStatusAsync(ServerProcess server, string nzoId, string status, CancellationToken cancellationToken)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(TimeSpan.FromSeconds(60));
        while (true)
        {
            var slots = (await server.ApiAsync("mode=queue", deadline.Token)).GetProperty("queue").GetProperty("slots");
            if (slots.EnumerateArray().Any(s => s.GetProperty("nzo_id").GetString() == nzoId && s.GetProperty("status").GetString() == status))
                return;
            await Task.Delay(50, deadline.Token);
        }
    }
}

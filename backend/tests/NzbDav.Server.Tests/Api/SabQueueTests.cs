using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using NzbDav.MockNntp;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Queue;
using NzbDav.Server.Tests.WebDav;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.Api;

/// <summary>The global pause and the queue's figures, over HTTP as Sonarr reads them.</summary>
public sealed partial class SabQueueTests(ITestOutputHelper output)
{
    [Fact]
    public async Task Global_pause_holds_new_jobs_across_a_restart_until_resume()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        using var work = new TempDirectory();
        await using var nntp = new MockNntpServer();
        await nntp.StartAsync(ct);
        var (nzb, _) = await ObfuscatedRelease.PostAsync(nntp, work.Path, ct);

        string id;
        var firstLogs = new LogCapture();
        await using (var first = await TestServer.StartAsync(data.Path, nntp.Port, holdQueue: false, services => services.AddSingleton<ILoggerProvider>(firstLogs), ct))
        {
            Assert.True((await Api(first, "mode=pause", ct)).GetProperty("status").GetBoolean());
            Assert.True((await Api(first, "mode=fullstatus", ct)).GetProperty("status").GetProperty("paused").GetBoolean());
            var notices = PausedNotices(firstLogs);
            id = (await first.AddFileAsync(nzb, "name", "Held.nzb", "tv", ct)).GetProperty("nzo_ids")[0].GetString()!;
            // The add woke the worker: once it says the queue is paused, it has looked and left the job.
            await WaitForPausedNoticeAsync(firstLogs, notices, nntp, ct);
            await AssertHeldAsync(first, id, ct);
        }

        // Restarted, the worker's first look finds the pause that was saved.
        var secondLogs = new LogCapture();
        await using var second = await TestServer.StartAsync(data.Path, nntp.Port, holdQueue: false, services => services.AddSingleton<ILoggerProvider>(secondLogs), ct);
        await WaitForPausedNoticeAsync(secondLogs, 0, nntp, ct);
        await AssertHeldAsync(second, id, ct);
        Assert.Equal(0, nntp.Stats.GetCommandCount(MockCommandKind.Body));

        Assert.True((await Api(second, "mode=resume", ct)).GetProperty("status").GetBoolean());
        var slot = await second.WaitForHistoryAsync(id, ct);
        Assert.Equal("Completed", slot.GetProperty("status").GetString());
        var queue = (await Api(second, "mode=queue", ct)).GetProperty("queue");
        Assert.False(queue.GetProperty("paused").GetBoolean());
        Assert.Equal("Idle", queue.GetProperty("status").GetString());
        Assert.False((await Api(second, "mode=fullstatus", ct)).GetProperty("status").GetProperty("paused").GetBoolean());
    }

    [Fact]
    [SlowTest("watches 40 clips ingest over a slowed provider")]
    public async Task Queue_figures_follow_a_running_ingestion()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var nntp = new MockNntpServer();
        await nntp.StartAsync(ct);
        for (var i = 0; i < 40; i++)
            nntp.Store.AddFile($"clip{i:00}.mkv", RandomBytes(30_000, i), 10_000);
        using var nzb = new MemoryStream();
        nntp.WriteNzb(nzb, "clips");
        // 40 first articles over 4 connections × 4 in flight take a few round trips: slow enough to watch.
        nntp.Behavior.Latency = TimeSpan.FromMilliseconds(400);
        await using var server = await TestServer.StartAsync(data.Path, nntp.Port, holdQueue: false, ct);

        var running = (await server.AddFileAsync(nzb.ToArray(), "name", "Clips.nzb", "tv", ct)).GetProperty("nzo_ids")[0].GetString()!;
        var waiting = (await server.AddFileAsync(nzb.ToArray(), "name", "Clips Again.nzb", "tv", ct)).GetProperty("nzo_ids")[0].GetString()!;

        var (queue, slot) = await WaitForPartialProgressAsync(server, running, ct);
        output.WriteLine(queue.ToString());
        Assert.Equal("Downloading", queue.GetProperty("status").GetString());
        Assert.Equal("Downloading", slot.GetProperty("status").GetString());
        var percentage = int.Parse(slot.GetProperty("percentage").GetString()!, CultureInfo.InvariantCulture);
        Assert.InRange(percentage, 1, 99);
        var mb = Number(slot, "mb");
        Assert.True(mb > 0);
        Assert.InRange(Number(slot, "mbleft"), mb * (99 - percentage) / 100 - 0.01, mb * (100 - percentage) / 100 + 0.01);
        Assert.Matches(TimeLeft(), slot.GetProperty("timeleft").GetString()!);
        Assert.True(Number(queue, "kbpersec") > 0);
        Assert.Matches(Speed(), queue.GetProperty("speed").GetString()!);
        Assert.Equal(2 * mb, Number(queue, "mb"), 0.011);
        Assert.True(Number(queue, "mbleft") < Number(queue, "mb"));
        Assert.Matches(TimeLeft(), queue.GetProperty("timeleft").GetString()!);
        var other = queue.GetProperty("slots").EnumerateArray().Single(s => s.GetProperty("nzo_id").GetString() == waiting);
        Assert.Equal("Queued", other.GetProperty("status").GetString());
        Assert.Equal("0", other.GetProperty("percentage").GetString());
        Assert.Equal(other.GetProperty("mb").GetString(), other.GetProperty("mbleft").GetString());

        await server.WaitForHistoryAsync(running, ct);
        await server.WaitForHistoryAsync(waiting, ct);
        var idle = (await Api(server, "mode=queue", ct)).GetProperty("queue");
        Assert.Equal("0:00:00", idle.GetProperty("timeleft").GetString());
        Assert.Equal("unknown", idle.GetProperty("eta").GetString());
        Assert.Equal("0.00", idle.GetProperty("mbleft").GetString());
    }

    [GeneratedRegex(@"^(\d+:)?\d+:\d\d:\d\d$")]
    private static partial Regex TimeLeft();

    [GeneratedRegex(@"^\d+(\.\d)? [KMGTP]?$")]
    private static partial Regex Speed();

    private static double Number(JsonElement element, string property) =>
        double.Parse(element.GetProperty(property).GetString()!, CultureInfo.InvariantCulture);

    private static Task<JsonElement> Api(TestServer server, string query, CancellationToken cancellationToken) =>
        server.GetAsync(query + "&apikey=" + TestServer.ApiKey, cancellationToken);

    private static int PausedNotices(LogCapture logs) =>
        logs.Entries.Count(e => e.Any(v => v.Key == "{OriginalFormat}" && v.Value as string == "The queue is paused: queued jobs wait for mode=resume"));

    /// <summary>Until the queue worker has said the queue is paused more than <paramref name="seen"/> times; fails as soon as a job fetches.</summary>
    private static async Task WaitForPausedNoticeAsync(LogCapture logs, int seen, MockNntpServer nntp, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        while (PausedNotices(logs) <= seen)
        {
            Assert.Equal(0, nntp.Stats.GetCommandCount(MockCommandKind.Body));
            Assert.True(Stopwatch.GetElapsedTime(started) < TimeSpan.FromSeconds(30), "the queue worker never said the queue is paused");
            await Task.Delay(10, cancellationToken);
        }
    }

    private static async Task AssertHeldAsync(TestServer server, string id, CancellationToken cancellationToken)
    {
        var queue = (await Api(server, "mode=queue", cancellationToken)).GetProperty("queue");
        Assert.True(queue.GetProperty("paused").GetBoolean());
        Assert.Equal("Paused", queue.GetProperty("status").GetString());
        var slot = Assert.Single(queue.GetProperty("slots").EnumerateArray());
        Assert.Equal(id, slot.GetProperty("nzo_id").GetString());
        Assert.Equal("Queued", slot.GetProperty("status").GetString());
    }

    private static async Task<(JsonElement Queue, JsonElement Slot)> WaitForPartialProgressAsync(TestServer server, string id, CancellationToken cancellationToken)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(TimeSpan.FromSeconds(60));
        while (true)
        {
            var queue = (await Api(server, "mode=queue", deadline.Token)).GetProperty("queue");
            foreach (var slot in queue.GetProperty("slots").EnumerateArray())
            {
                if (slot.GetProperty("nzo_id").GetString() == id && slot.GetProperty("percentage").GetString() is not "0")
                    return (queue, slot);
            }

            await Task.Delay(20, deadline.Token);
        }
    }

    private static byte[] RandomBytes(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        // EBML magic: every clip is a playable Matroska file.
        bytes[0] = 0x1A; bytes[1] = 0x45; bytes[2] = 0xDF; bytes[3] = 0xA3;
        return bytes;
    }
}

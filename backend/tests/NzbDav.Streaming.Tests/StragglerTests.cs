using System.Diagnostics;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.Streaming.Tests.Support;
using NzbDav.Usenet.Providers;
using static NzbDav.Streaming.Tests.Support.StreamHarness;

namespace NzbDav.Streaming.Tests;

/// <summary>A late head-of-line segment is fetched again on another connection; the first good answer wins.</summary>
public sealed class StragglerTests
{
    [Fact]
    public async Task A_stalled_segment_is_raced_on_another_connection_and_the_data_is_right()
    {
        const int segmentSize = 24 * 1024;
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(3));
        var file = server.Store.AddGeneratedFile("straggler.bin", 30L * segmentSize, segmentSize);
        // Its first request stalls far beyond any plausible median; a second request is answered normally.
        server.Store.SetDelay(file.Articles[12], TimeSpan.FromSeconds(2));
        await using var harness = Create(new StreamingOptions { ConnectionsPerStream = 6 }, Provider(server, maxConnections: 6, pipelineDepth: 2));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 16 * 1024, Token);
            Assert.True(stream.Statistics.StragglerRaces >= 1, "the stalled segment should have been raced");
        }

        Assert.True(server.Stats.GetCommandCount(MockCommandKind.Body) > file.Articles.Count, "the raced article was requested twice");
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task Segments_stuck_behind_a_stalled_answer_on_the_same_connection_are_fetched_elsewhere()
    {
        const int segmentSize = 16 * 1024;
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(2));
        var file = server.Store.AddGeneratedFile("stuck.bin", 40L * segmentSize, segmentSize);
        foreach (var number in new[] { 8, 20, 31 })
        {
            server.Store.SetDelay(file.Articles[number], TimeSpan.FromSeconds(2));
        }
        await using var harness = Create(new StreamingOptions { ConnectionsPerStream = 4 }, Provider(server, maxConnections: 4, pipelineDepth: 4));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 40 * 1024, Token);
            Assert.True(stream.Statistics.StragglerRaces >= 1);
        }

        // Stalled connections are closed, never handed back to the pool; the mock only notices a
        // closed session once its stall ends, so count on the client side.
        Assert.InRange(harness.Client.GetProviderStatus().Single().Pool.PeakOpen, 1, 4);
        await harness.AssertAllReturnedAsync();
    }

    [Theory]
    // The primary's one connection is the stream's, so the race can only go to the backup.
    [InlineData("race-on-backup", 2, 1, 10)]
    // The backup answers everything, its greeting included, after 3 s, so the second and third
    // races (which wait 300 ms for a backup session) run on the primary and stall too: only a last
    // race that waits for the backup's session, however long, delivers it before the stall ends.
    [InlineData("last-race", 3000, 4, 20)]
    public async Task A_segment_stalling_on_every_primary_request_is_raced_on_the_backup(string token, int backupLatencyMs, int primaryConnections, int boundSeconds)
    {
        await using var pair = await PrimaryAndBackup.StartAsync(token, TimeSpan.FromMilliseconds(backupLatencyMs));
        var (primary, backup, file) = (pair.Primary, pair.Backup, pair.File);
        // Longer than the whole read may take: only a race on another provider delivers it in time.
        primary.Store.SetDelay(file.Articles[7], TimeSpan.FromSeconds(30), times: 10);
        // The backup is never used while the primary is healthy, except to race.
        await using var harness = pair.CreateHarness(primaryConnections);

        var elapsed = await ReadAllRacedAsync(harness, file, minimumRaces: Math.Min(2, primaryConnections));
        Assert.True(elapsed < TimeSpan.FromSeconds(boundSeconds), $"the read took {elapsed.TotalSeconds:F1} s: it waited out the primary's stall");
        Assert.True(backup.Stats.GetCommandCount(MockCommandKind.Body) >= 1, "the race should have gone to the backup");
        var pools = harness.Client.GetProviderStatus();
        Assert.InRange(pools.Single(p => p.Name == "primary").Pool.PeakOpen, 1, primaryConnections);
        Assert.InRange(pools.Single(p => p.Name == "backup").Pool.PeakOpen, 1, 2);
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_race_does_not_wait_for_a_backup_session_that_is_slow_to_come_when_a_connection_of_its_own_is_free()
    {
        // The backup answers everything, its greeting included, after 3 s: a session from it comes late.
        await using var pair = await PrimaryAndBackup.StartAsync("slow-backup", TimeSpan.FromSeconds(3));
        var (primary, file) = (pair.Primary, pair.File);
        // The first two requests for it stall (the fetch and its first race); a third is answered.
        primary.Store.SetDelay(file.Articles[7], TimeSpan.FromSeconds(30), times: 2);
        await using var harness = pair.CreateHarness(primaryConnections: 3);

        // Waiting for the backup's session and then its answer takes at least 6 s.
        var elapsed = await ReadAllRacedAsync(harness, file, minimumRaces: 2);
        Assert.True(elapsed < TimeSpan.FromSeconds(4), $"the read took {elapsed.TotalSeconds:F1} s: the race waited for the backup session");
        Assert.Equal(3, primary.Stats.GetCommandCount(MockCommandKind.Body) - (file.Articles.Count - 1));
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_segment_another_streams_reader_waits_on_is_raced_when_its_first_copy_failed_and_the_retry_stalls()
    {
        await using var pair = await PrimaryAndBackup.StartAsync("failed-shared", TimeSpan.FromMilliseconds(2));
        var (primary, backup, file) = (pair.Primary, pair.Backup, pair.File);
        var segmentSize = file.Size / file.Articles.Count;
        const int segment = 4;
        // The primary's copy fails once it has arrived (bad CRC); the retry, on the backup, stalls.
        // Only a race delivers it in time, and the owner races only what a reader waits on.
        primary.Store.SetCorrupt(file.Articles[segment], true);
        backup.Store.SetDelay(file.Articles[segment], TimeSpan.FromSeconds(60));
        await using var harness = Create(new StreamingOptions { ConnectionsPerStream = 4 }, Provider(primary, "primary", maxConnections: 4), pair.BackupProvider);
        var ids = file.Articles.Select(a => a.MessageId).ToList();

        // The leader's start read-ahead fetches the segment; its reader never gets there.
        await using var leader = harness.Factory.Open(ids, file.Size, segmentSize);
        await StreamAssert.ReadsExactlyAsync(leader, file, 100, Token);
        var asked = Stopwatch.GetTimestamp();
        while (backup.Stats.GetCommandCount(MockCommandKind.Body) < 1)
        {
            Assert.True(Stopwatch.GetElapsedTime(asked) < TimeSpan.FromSeconds(30), "the corrupt segment was never retried on the backup");
            await Task.Delay(5, Token);
        }

        // A second stream's reader needs it now: it joins the leader's fetch, whose copy has failed.
        await using var follower = harness.Factory.Open(ids, file.Size, segmentSize);
        follower.LimitReadAhead((segment * segmentSize) + 1000);
        follower.Position = segment * segmentSize;
        var started = Stopwatch.GetTimestamp();
        await StreamAssert.ReadsExactlyAsync(follower, file, 1000, Token);

        var elapsed = Stopwatch.GetElapsedTime(started);
        Assert.True(elapsed < TimeSpan.FromSeconds(10), $"the read took {elapsed.TotalSeconds:F1} s: it waited out the stalled retry");
        Assert.True(backup.Stats.GetCommandCount(MockCommandKind.Body) >= 2, "the retry should have been raced on the backup");
    }

    /// <summary>Reads the whole file through a new stream, checks it was raced at least <paramref name="minimumRaces"/> times, and says how long it took.</summary>
    private static async Task<TimeSpan> ReadAllRacedAsync(StreamHarness harness, MockFile file, int minimumRaces)
    {
        var started = Stopwatch.GetTimestamp();
        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 16 * 1024, Token);
            Assert.True(stream.Statistics.StragglerRaces >= minimumRaces, $"{stream.Statistics.StragglerRaces} race(s), expected at least {minimumRaces}");
        }
        return Stopwatch.GetElapsedTime(started);
    }

    /// <summary>A primary and a backup mock with the same 20-segment file (same message-ids); the backup answers after <c>backupLatency</c>.</summary>
    private sealed class PrimaryAndBackup : IAsyncDisposable
    {
        private const int SegmentSize = 24 * 1024;

        private PrimaryAndBackup(MockNntpServer primary, MockNntpServer backup, MockFile file)
        {
            Primary = primary;
            Backup = backup;
            File = file;
        }

        public MockNntpServer Primary { get; }

        public MockNntpServer Backup { get; }

        public MockFile File { get; }

        /// <summary>Streams with this many primary connections (no pipelining) and the backup beside them.</summary>
        public StreamHarness CreateHarness(int primaryConnections) => Create(
            new StreamingOptions { ConnectionsPerStream = primaryConnections },
            Provider(Primary, "primary", maxConnections: primaryConnections, pipelineDepth: 1),
            BackupProvider);

        public UsenetProviderOptions BackupProvider => Provider(Backup, "backup", maxConnections: 2, priority: 1) with { Role = ProviderRole.BackupOnly };

        public static async Task<PrimaryAndBackup> StartAsync(string messageIdToken, TimeSpan backupLatency)
        {
            var primary = await StartServerAsync(latency: TimeSpan.FromMilliseconds(2), messageIdToken: messageIdToken);
            var backup = await StartServerAsync(latency: backupLatency, messageIdToken: messageIdToken);
            var file = primary.Store.AddGeneratedFile("both.bin", 20L * SegmentSize, SegmentSize);
            backup.Store.AddGeneratedFile("both.bin", file.Size, SegmentSize);
            return new PrimaryAndBackup(primary, backup, file);
        }

        public async ValueTask DisposeAsync()
        {
            await Primary.DisposeAsync();
            await Backup.DisposeAsync();
        }
    }
}

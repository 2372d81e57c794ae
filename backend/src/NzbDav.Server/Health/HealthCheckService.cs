using System.Collections.Concurrent;
using System.Threading.Channels;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Health;

/// <summary>
/// Runs the library's health checks: urgent files first (a streaming read failed, the user asked),
/// then files whose <see cref="FileHealth.NextCheckAt"/> has come, a few at a time so their STATs
/// share the sweep's pipelines; a file found Broken goes to the <see cref="HealthRepairer"/>. A read
/// error only ever asks for a check: what the check confirms decides, never the error itself.
/// </summary>
public sealed class HealthCheckService(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    FileHealthChecker checker,
    HealthRepairer repairer,
    FileHoles holes,
    Par2.SegmentPatchStore patches,
    UsenetClient client,
    IOptionsMonitor<HealthOptions> options,
    TimeProvider time,
    ILogger<HealthCheckService> logger,
    Cluster.HealthWake? wake = null,
    Cluster.ClusterNotifications? cluster = null,
    Cluster.ClusterNode? self = null) : BackgroundService
{
    private static readonly TimeSpan LongestSleep = TimeSpan.FromMinutes(1);

    /// <summary>
    /// How long a file a node took for checking stays its own on PostgreSQL: its check sets the real
    /// next time; a node that dies with it leaves it to the others at once (the heartbeat's reclaim),
    /// and a check that hangs leaves it after this.
    /// </summary>
    private static readonly TimeSpan ClaimWindow = TimeSpan.FromMinutes(10);

    /// <summary>Heard from another node: there is a backlog of due files, take a share.</summary>
    public const string HealthTopic = "health";

    private readonly Channel<Guid> _urgent = Channel.CreateUnbounded<Guid>(new UnboundedChannelOptions { SingleReader = true });
    private readonly ConcurrentDictionary<Guid, Task<FileCheckResult?>> _running = new();
    private readonly ConcurrentDictionary<Guid, DateTime> _repairRetryAt = new();
    private readonly SemaphoreSlim _wake = new(0);
    private long _checksDone;
    private long _passesDone;

    /// <summary>Checks finished since start (tests wait on it).</summary>
    public long ChecksDone => Interlocked.Read(ref _checksDone);

    /// <summary>Scheduler passes finished since start, each followed by a sleep (tests wait on it).</summary>
    public long PassesDone => Interlocked.Read(ref _passesDone);

    /// <summary>A streaming read of this file failed: check it before anything scheduled. Never blocks.</summary>
    public void ReportReadError(Guid itemId)
    {
        _urgent.Writer.TryWrite(itemId);
        _wake.Release();
    }

    /// <summary>
    /// Checks a file now (every segment when <paramref name="full"/>), sharing a check already
    /// running for it. When the check left suspects to confirm or segments unanswered, the
    /// scheduler is woken: that check is due sooner than the scheduler's sleep may last, and it
    /// comes when due, not up to a minute later.
    /// </summary>
    public async Task<FileCheckResult?> CheckNowAsync(Guid itemId, bool full, CancellationToken cancellationToken)
    {
        var result = await RunCheckAsync(itemId, full, cancellationToken);
        if (result is { Suspects: > 0 } or { Unknown: > 0 })
            _wake.Release();
        return result;
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            await holes.LoadAsync(stoppingToken);
            await patches.LoadAsync(stoppingToken);
            await BackfillAsync(stoppingToken);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            logger.LogError(ex, "Health checks could not read the library; they start with the next pass");
        }
        using var onChange = options.OnChange(_ => _wake.Release());
        void Woken() => _wake.Release();
        if (wake is not null)
            wake.Requested += Woken;
        using var unsubscribe = new Unsubscribe(() =>
        {
            if (wake is not null)
                wake.Requested -= Woken;
        });
        while (!stoppingToken.IsCancellationRequested)
        {
            TimeSpan sleep;
            try
            {
                await MarkUrgentAsync(stoppingToken);
                sleep = await PassAsync(stoppingToken);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception ex)
            {
                logger.LogError(ex, "A health-check pass failed; the next one starts in a minute");
                sleep = LongestSleep;
            }
            Interlocked.Increment(ref _passesDone);
            try
            {
                await SleepAsync(sleep, stoppingToken);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    /// <summary>
    /// Sleeps <paramref name="sleep"/> on <c>time</c>, the clock the due times are read from (so a
    /// file comes due when that clock passes its NextCheckAt), or until woken: a read error, a setting changed.
    /// </summary>
    private async Task SleepAsync(TimeSpan sleep, CancellationToken stoppingToken)
    {
        if (sleep <= TimeSpan.Zero)
        {
            await _wake.WaitAsync(0, stoppingToken);
            return;
        }
        using var timeout = new CancellationTokenSource(sleep, time);
        using var woken = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken, timeout.Token);
        try
        {
            await _wake.WaitAsync(woken.Token);
        }
        catch (OperationCanceledException) when (!stoppingToken.IsCancellationRequested)
        {
            // Slept the whole time: the next pass finds what has come due.
        }
    }

    /// <summary>One round: the due files, then the repairs they call for. Answers how long to sleep.</summary>
    private async Task<TimeSpan> PassAsync(CancellationToken cancellationToken)
    {
        var settings = options.CurrentValue;
        if (client.ProviderCount == 0)
            return LongestSleep;
        var now = time.GetUtcNow().UtcDateTime;
        List<Guid> due;
        DateTime? nextDue;
        var batch = settings.ConcurrentFiles * 8;
        await using (var context = await contextFactory.CreateDbContextAsync(cancellationToken))
        {
            if (!context.Database.IsSqlite())
            {
                // Several nodes: each due file is taken by one of them (SKIP LOCKED: nodes taking at
                // once get different files), its next check pushed past the claim window until the
                // check sets it. A node that cannot take the whole backlog asks the others for help.
                var claimUntil = now + ClaimWindow;
                var scheduled = settings.Enabled;
                var node = self?.Id;
                due = await context.Database.SqlQuery<Guid>($"""
                    UPDATE "FileHealth" SET "Urgent" = FALSE, "NextCheckAt" = {claimUntil}, "CheckClaimedBy" = {node}
                    WHERE "DavItemId" IN (SELECT "DavItemId" FROM "FileHealth"
                                          WHERE "Urgent" OR ({scheduled} AND "NextCheckAt" <= {now})
                                          ORDER BY "Urgent" DESC, "NextCheckAt" LIMIT {batch}
                                          FOR UPDATE SKIP LOCKED)
                    RETURNING "DavItemId" AS "Value"
                    """).ToListAsync(cancellationToken);
                nextDue = settings.Enabled
                    ? await context.FileHealth.Where(h => !h.Urgent && h.NextCheckAt > now).OrderBy(h => h.NextCheckAt).Select(h => (DateTime?)h.NextCheckAt).FirstOrDefaultAsync(cancellationToken)
                    : null;
                if (due.Count >= batch)
                    cluster?.Publish(HealthTopic);
            }
            else
            {
                (due, nextDue) = await DueOnOneNodeAsync(context, settings, now, batch, cancellationToken);
            }
        }

        await Parallel.ForEachAsync(due, new ParallelOptions { MaxDegreeOfParallelism = settings.ConcurrentFiles, CancellationToken = cancellationToken },
            async (itemId, token) => await CheckScheduledAsync(itemId, token));
        foreach (var itemId in await DeferredRepairsDueAsync(now, cancellationToken))
            await RepairAsync(itemId, cancellationToken);

        if (due.Count >= batch)
            return TimeSpan.Zero;
        var untilDue = nextDue is { } next ? next - time.GetUtcNow().UtcDateTime : LongestSleep;
        return untilDue < TimeSpan.Zero ? TimeSpan.Zero : untilDue > LongestSleep ? LongestSleep : untilDue;
    }

    /// <summary>The files due now and when the next one comes due, when one node serves the library.</summary>
    private static async Task<(List<Guid> Due, DateTime? NextDue)> DueOnOneNodeAsync(NzbDavDbContext context, HealthOptions settings, DateTime now, int batch, CancellationToken cancellationToken)
    {
        List<Guid> due;
        DateTime? nextDue;
        {
            var query = context.FileHealth.AsNoTracking();
            query = settings.Enabled ? query.Where(h => h.Urgent || h.NextCheckAt <= now) : query.Where(h => h.Urgent);
            due = await query.OrderByDescending(h => h.Urgent).ThenBy(h => h.NextCheckAt)
                .Select(h => h.DavItemId).Take(batch).ToListAsync(cancellationToken);
            nextDue = settings.Enabled
                ? await context.FileHealth.Where(h => !h.Urgent && h.NextCheckAt > now).OrderBy(h => h.NextCheckAt).Select(h => (DateTime?)h.NextCheckAt).FirstOrDefaultAsync(cancellationToken)
                : null;
        }

        return (due, nextDue);
    }

    private sealed class Unsubscribe(Action action) : IDisposable
    {
        public void Dispose() => action();
    }

    /// <summary>A file whose check fails (an unreadable layout, the store busy) is put back, so it cannot hold up the others.</summary>
    private async Task CheckScheduledAsync(Guid itemId, CancellationToken cancellationToken)
    {
        try
        {
            await RunCheckAsync(itemId, full: false, cancellationToken);
        }
        catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            var retry = time.GetUtcNow().UtcDateTime + options.CurrentValue.UnknownRetry;
            await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
            await context.FileHealth.Where(h => h.DavItemId == itemId)
                .ExecuteUpdateAsync(s => s.SetProperty(h => h.Urgent, false).SetProperty(h => h.NextCheckAt, retry).SetProperty(h => h.CheckClaimedBy, (Guid?)null), cancellationToken);
        }
    }

    private async Task RepairAsync(Guid itemId, CancellationToken cancellationToken)
    {
        if (_repairRetryAt.TryGetValue(itemId, out var retryAt) && retryAt > time.GetUtcNow().UtcDateTime)
            return;
        try
        {
            await repairer.RepairAsync(itemId, userAsked: false, cancellationToken);
            await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
            var status = await context.FileHealth.Where(h => h.DavItemId == itemId).Select(h => (RepairStatus?)h.Repair).FirstOrDefaultAsync(cancellationToken);
            if (status == RepairStatus.Deferred)
                _repairRetryAt[itemId] = time.GetUtcNow().UtcDateTime + options.CurrentValue.RepairRetry;
            else
                _repairRetryAt.TryRemove(itemId, out _);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            logger.LogError(ex, "Repair of library item {ItemId} failed; tried again later", itemId);
            _repairRetryAt[itemId] = time.GetUtcNow().UtcDateTime + options.CurrentValue.RepairRetry;
        }
    }

    /// <summary>Broken files whose deferred repair may be tried again (after a restart: all of them, once).</summary>
    private async Task<List<Guid>> DeferredRepairsDueAsync(DateTime now, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var deferred = await context.FileHealth.AsNoTracking()
            .Where(h => h.State == FileHealthState.Broken && h.Repair == RepairStatus.Deferred)
            .OrderBy(h => h.LastRepairAt).Select(h => h.DavItemId).Take(100).ToListAsync(cancellationToken);
        return deferred.Where(id => !_repairRetryAt.TryGetValue(id, out var at) || at <= now).ToList();
    }

    private async Task<FileCheckResult?> RunCheckAsync(Guid itemId, bool full, CancellationToken cancellationToken)
    {
        var created = new TaskCompletionSource<FileCheckResult?>(TaskCreationOptions.RunContinuationsAsynchronously);
        var running = _running.GetOrAdd(itemId, created.Task);
        if (!ReferenceEquals(running, created.Task))
            return await running.WaitAsync(cancellationToken);
        try
        {
            var result = await checker.CheckAsync(itemId, full, cancellationToken);
            // Whoever asked for the check, a confirmed Broken file goes to the repair policy, and a
            // file that just became Degraded to PAR2 (which alone can make it whole in place).
            if (result?.State == FileHealthState.Broken
                || (result is { State: FileHealthState.Degraded, Previous: not FileHealthState.Degraded } && options.CurrentValue.Par2Repair))
            {
                await RepairAsync(itemId, cancellationToken);
            }
            Interlocked.Increment(ref _checksDone);
            created.SetResult(result);
            return result;
        }
        catch (Exception ex)
        {
            if (ex is not OperationCanceledException)
                logger.LogError(ex, "Health check of library item {ItemId} failed", itemId);
            created.SetException(ex);
            throw;
        }
        finally
        {
            _running.TryRemove(itemId, out _);
            // Nobody may be awaiting it: observe the exception so it is not reported as unobserved.
            _ = created.Task.Exception;
        }
    }

    private async Task MarkUrgentAsync(CancellationToken cancellationToken)
    {
        var ids = new HashSet<Guid>();
        while (_urgent.Reader.TryRead(out var id))
            ids.Add(id);
        if (ids.Count == 0)
            return;
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var marked = await context.FileHealth.Where(h => ids.Contains(h.DavItemId)).ExecuteUpdateAsync(s => s.SetProperty(h => h.Urgent, true).SetProperty(h => h.FullCheckNext, true), cancellationToken);
        // A sample could miss the segment that failed: the urgent check asks about every one.
        logger.LogInformation("{Files} file(s) with a failed streaming read checked first, in full", marked);
    }

    /// <summary>Library files without a health row (a library from before health checks) get one, their first checks spread over a day.</summary>
    private async Task BackfillAsync(CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        // Looked for with a read first: the insert is a write transaction, and over a library of a
        // million files it would hold the write lock for seconds at every start (the server's other
        // start-up writes wait on it) to find, nearly always, nothing to add.
        var missing = await context.Database.SqlQueryRaw<int>("""
            SELECT CASE WHEN EXISTS (SELECT 1 FROM "DavItems" d
                                     WHERE NOT d."IsDirectory" AND d."Layout" IS NOT NULL
                                       AND NOT EXISTS (SELECT 1 FROM "FileHealth" h WHERE h."DavItemId" = d."Id"))
                        THEN 1 ELSE 0 END AS "Value"
            """).SingleAsync(cancellationToken);
        if (missing == 0)
            return;
        // A moment in the next 24 hours, in each engine's own words (EF stores SQLite times as text).
        var spread = context.Database.IsSqlite()
            ? "strftime('%Y-%m-%d %H:%M:%f', 'now', '+' || (abs(random()) % 86400) || ' seconds')"
            : "now() + floor(random() * 86400) * interval '1 second'";
        const string Insert = """
            INSERT INTO "FileHealth" ("DavItemId", "JobId", "State", "Repair", "ReleasedAt", "NextCheckAt", "Urgent", "FullCheckNext",
                                      "SegmentCount", "CheckedSegments", "UnknownSegments", "MissingCount", "RepairAttempts")
            SELECT d."Id", d."JobId", 0, 0, COALESCE(j."CompletedAt", j."AddedAt"), {0}, FALSE, FALSE, 0, 0, 0, 0, 0
            FROM "DavItems" d JOIN "Jobs" j ON j."Id" = d."JobId"
            WHERE NOT d."IsDirectory" AND d."Layout" IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM "FileHealth" h WHERE h."DavItemId" = d."Id")
            """;
        var added = await context.Database.ExecuteSqlRawAsync(Insert.Replace("{0}", spread, StringComparison.Ordinal), cancellationToken);
        if (added > 0)
            logger.LogInformation("{Files} library file(s) had no health record; their first checks are spread over the next 24 hours", added);
    }
}

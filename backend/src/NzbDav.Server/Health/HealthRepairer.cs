using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Health.Arr;
using NzbDav.Server.Mount;

namespace NzbDav.Server.Health;

/// <summary>
/// Repairs a Broken file through the Sonarr/Radarr that grabbed it (<see cref="IArrRepairService"/>:
/// prove the download is the Arr's → mark the grab failed → delete the Arr's file record → search).
/// Only when the Arr accepted every step does the file leave the library (and the job, moved to the
/// history as Failed with the reason, once none of its files is left). Safeguards: an Arr that is
/// unreachable or refuses a step defers (nothing is deleted); at most one repair per file within
/// <see cref="HealthOptions.RepairWindow"/>, then "Action needed"; at most
/// <see cref="HealthOptions.MaxRepairsPerHour"/> repairs library-wide; dry-run; every step audited.
/// </summary>
public sealed class HealthRepairer(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    IArrRepairService arr,
    HealthAudit audit,
    HealthMetrics metrics,
    FileHoles holes,
    LibraryChanges changes,
    Par2.Par2JobRepairer par2,
    Par2.Par2Repairs par2Queue,
    Cluster.ClusterLocks locks,
    IOptionsMonitor<HealthOptions> options,
    TimeProvider time,
    ILogger<HealthRepairer> logger)
{
    /// <summary>
    /// Repairs <paramref name="itemId"/> if it is Broken and allowed to. <paramref name="userAsked"/>
    /// (the UI's "repair now") overrides "ignored" and the per-file window, not the hourly cap.
    /// Answers what happened in one sentence, or null when there was nothing to do.
    /// </summary>
    public Task<string?> RepairAsync(Guid itemId, bool userAsked, CancellationToken cancellationToken) =>
        RepairAsync(itemId, userAsked, tryPar2: true, cancellationToken);

    /// <param name="tryPar2">False: straight to Sonarr/Radarr (the UI's "Replace through Sonarr").</param>
    public Task<string?> RepairAsync(Guid itemId, bool userAsked, bool tryPar2, CancellationToken cancellationToken) =>
        RepairAsync(itemId, userAsked, tryPar2, par2Failure: null, cancellationToken);

    /// <param name="par2Failure">Why a PAR2 repair that ran could not make the file whole (for the Sonarr path's audit).</param>
    private async Task<string?> RepairAsync(Guid itemId, bool userAsked, bool tryPar2, string? par2Failure, CancellationToken cancellationToken)
    {
        // One repair of a file in the whole cluster at a time: every node's scheduler finds the same
        // deferred repairs due, and a user may click on any node.
        var held = await locks.TryAcquireAsync("repair", itemId, cancellationToken);
        if (held is null)
            return "Another node is repairing this file now; it decides what happens next.";
        await using var heldLifetime = held;
        return await RepairHeldAsync(itemId, userAsked, tryPar2, par2Failure, cancellationToken);
    }

    private async Task<string?> RepairHeldAsync(Guid itemId, bool userAsked, bool tryPar2, string? par2Failure, CancellationToken cancellationToken)
    {
        var settings = options.CurrentValue;
        var now = time.GetUtcNow().UtcDateTime;
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        if (await FindAsync(context, itemId, cancellationToken) is not { } found)
            return null;
        var (health, item, job) = found;
        // A repair that ended in failure comes here itself, its ticket not yet let go.
        if (par2Failure is null && par2Queue.Of(job.Id) is { } repairing)
            return $"A PAR2 repair of {job.Name} is {(repairing.Running ? "running" : "queued")}; it decides what happens next.";
        var par2Allowed = tryPar2 && settings.Par2Repair && health.State == FileHealthState.Degraded;
        if (health.State != FileHealthState.Broken && !par2Allowed)
            return userAsked ? $"{item.Name} is {health.State}, not Broken: nothing to repair." : null;
        // A dry run is logged once; turning dry-run off lets the real repair go ahead.
        var waitsForUser = health.Repair is RepairStatus.Ignored or RepairStatus.ActionNeeded
            || (health.Repair == RepairStatus.DryRun && settings.DryRun);
        if (!userAsked && (!settings.Repair || waitsForUser))
            return null;
        if (!userAsked && health.LastRepairAt is { } last && now - last < settings.RepairWindow)
        {
            health.Repair = RepairStatus.ActionNeeded;
            health.RepairMessage = $"Repaired once already on {last:u}; not repeated within {settings.RepairWindow.TotalDays:0.#} days. Replace the release or choose Repair now.";
            await context.SaveChangesAsync(cancellationToken);
            await audit.WriteAsync(HealthAudit.Entry(item.Id, job.Id, item.Path, "action-needed", health.RepairMessage), cancellationToken);
            metrics.Repair("action_needed");
            return health.RepairMessage;
        }
        var hourAgo = now.AddHours(-1);
        var recent = await context.HealthAudit.CountAsync(a => a.Action == "repair" && a.At >= hourAgo, cancellationToken);
        if (recent >= settings.MaxRepairsPerHour)
        {
            var message = $"{recent} repairs started in the last hour (limit {settings.MaxRepairsPerHour}); this one waits.";
            health.Repair = RepairStatus.Deferred;
            health.RepairMessage = message;
            await context.SaveChangesAsync(cancellationToken);
            metrics.Repair("deferred");
            return message;
        }

        var par2Reason = par2Failure;
        if (tryPar2 && settings.Par2Repair)
        {
            var (done, message, reason) = await TryPar2Async(context, health, item, job, settings, now, userAsked, cancellationToken);
            if (done)
                return message;
            par2Reason = reason;
            if (health.State != FileHealthState.Broken)
            {
                // Degraded: it plays through its holes; only PAR2 was on offer.
                return userAsked ? $"{item.Name} is Degraded and PAR2 cannot repair it: {reason} It plays through its holes." : null;
            }
        }

        var dryRun = settings.DryRun;
        await audit.WriteAsync(HealthAudit.Entry(item.Id, job.Id, item.Path, "repair",
            $"{(dryRun ? "Dry run: " : "")}asking Sonarr/Radarr to replace it{(userAsked ? " (asked from the UI)" : "")}: {health.Detail}{(par2Reason is null ? "" : "; PAR2 could not: " + par2Reason)}"), cancellationToken);
        // The window also holds per episode or movie: a replacement that goes bad too is not replaced again.
        var since = now - settings.RepairWindow;
        List<ArrRecentRepair> recentRepairs = userAsked ? [] : await context.ArrRepairedItems.AsNoTracking().Where(r => r.RepairedAt >= since)
            .Select(r => new ArrRecentRepair(r.Instance, r.ItemId, r.RepairedAt, r.JobName)).ToListAsync(cancellationToken);
        var outcome = await arr.RepairAsync(new ArrRepairRequest(job.NzoId, job.Name, job.Category, item.Path, dryRun, recentRepairs), cancellationToken);
        await audit.WriteAsync(outcome.Calls.Select(call => HealthAudit.Entry(item.Id, job.Id, item.Path, "arr-call", Describe(call))), cancellationToken);

        health.RepairMessage = outcome.Reason;
        health.RepairAttempts++;
        // The Arr changed something (a grab marked failed, a file record deleted): even if a later
        // step was refused, the repair is not started over inside the window — the user decides.
        var wrote = outcome.Calls.Any(static c => !c.DryRun && c.Method != "GET" && c.Status is >= 200 and < 300);
        if (wrote)
            health.LastRepairAt = now;
        // The episodes or movie whose release was blocklisted are guarded by the window even when a
        // later step (the search) was refused: another release of them going bad is not repaired again.
        if (outcome.Result is ArrRepairResult.Repaired || (wrote && outcome.Result is ArrRepairResult.Deferred))
        {
            context.ArrRepairedItems.AddRange((outcome.Replaced ?? []).Select(id => new ArrRepairedItem
            {
                Instance = outcome.Instance!,
                ItemId = id,
                RepairedAt = now,
                JobName = job.Name,
            }));
        }
        switch (outcome.Result)
        {
            case ArrRepairResult.Repaired:
                health.LastRepairAt = now;
                health.Repair = RepairStatus.None;
                await context.SaveChangesAsync(cancellationToken);
                await RemoveAsync(context, item, job, outcome, cancellationToken);
                metrics.Repair("repaired");
                break;
            case ArrRepairResult.DryRun:
                health.Repair = RepairStatus.DryRun;
                await context.SaveChangesAsync(cancellationToken);
                metrics.Repair("dry_run");
                break;
            case ArrRepairResult.Deferred:
                health.Repair = RepairStatus.Deferred;
                await context.SaveChangesAsync(cancellationToken);
                metrics.Repair("deferred");
                break;
            case ArrRepairResult.RecentlyRepaired:
                health.Repair = RepairStatus.ActionNeeded;
                await context.SaveChangesAsync(cancellationToken);
                metrics.Repair("action_needed");
                break;
            default:
                health.Repair = RepairStatus.ActionNeeded;
                await context.SaveChangesAsync(cancellationToken);
                metrics.Repair("not_found");
                break;
        }
        await audit.WriteAsync(HealthAudit.Entry(item.Id, job.Id, item.Path, "repair-" + outcome.Result.ToString().ToLowerInvariant(),
            (outcome.Instance is null ? "" : outcome.Instance + ": ") + outcome.Reason), cancellationToken);
        logger.LogWarning("Repair of {Path} ({NzoId}): {Result} by {Instance}: {Reason}", item.Path, job.NzoId, outcome.Result, outcome.Instance ?? "-", outcome.Reason);
        return outcome.Reason;
    }

    /// <summary>
    /// PAR2 first: repairs the job from its recovery data when the plan is possible and within the
    /// caps. Done when it repaired, logged a dry run or waits for the day's cap; otherwise the reason
    /// PAR2 cannot, for the Sonarr/Radarr path.
    /// </summary>
    private async Task<(bool Done, string? Message, string? Reason)> TryPar2Async(
        NzbDavDbContext context, FileHealth health, DavItem item, Job job, HealthOptions settings, DateTime now, bool userAsked, CancellationToken cancellationToken)
    {
        var plan = await par2.PlanAsync(job.Id, cancellationToken);
        if (!plan.Possible)
        {
            if (userAsked || health.State == FileHealthState.Broken)
                await audit.WriteAsync(HealthAudit.Entry(item.Id, job.Id, item.Path, "par2-skipped", plan.Summary), cancellationToken);
            return (false, null, plan.Summary);
        }

        if (settings.Par2MaxBytesPerRepair is { } perRepair && plan.BytesToFetch > perRepair)
        {
            var over = $"The PAR2 repair would fetch {plan.BytesToFetch:N0} bytes, over the cap of {perRepair:N0} per repair (Health:Par2MaxBytesPerRepair).";
            await audit.WriteAsync(HealthAudit.Entry(item.Id, job.Id, item.Path, "par2-skipped", over), cancellationToken);
            return (false, null, over);
        }

        if (settings.Par2MaxBytesPerDay is { } perDay)
        {
            var dayStart = now.Date;
            var today = await context.TrafficHours.Where(h => h.Consumer == Par2.Par2JobRepairer.Consumer && h.HourStart >= dayStart)
                .SumAsync(h => h.ReceivedBytes, cancellationToken);
            if (today + plan.BytesToFetch > perDay)
            {
                health.Repair = RepairStatus.Deferred;
                health.RepairMessage = $"PAR2 repairs fetched {today:N0} bytes today; this one ({plan.BytesToFetch:N0}) would pass the day's cap of {perDay:N0} (Health:Par2MaxBytesPerDay). It waits for tomorrow (UTC).";
                await context.SaveChangesAsync(cancellationToken);
                await audit.WriteAsync(HealthAudit.Entry(item.Id, job.Id, item.Path, "par2-deferred", health.RepairMessage), cancellationToken);
                metrics.Repair("deferred");
                return (true, health.RepairMessage, null);
            }
        }

        if (settings.DryRun)
        {
            health.Repair = RepairStatus.DryRun;
            health.RepairMessage = "Dry run: " + plan.Summary;
            await context.SaveChangesAsync(cancellationToken);
            await audit.WriteAsync(HealthAudit.Entry(item.Id, job.Id, item.Path, "par2-dry-run", health.RepairMessage), cancellationToken);
            metrics.Repair("dry_run");
            return (true, health.RepairMessage, null);
        }

        return (true, await QueuePar2Async(context, health, item, job, plan, userAsked, cancellationToken), null);
    }

    /// <summary>
    /// The UI's "Repair with PAR2": queues the release's repair when its plan is possible, whatever
    /// the caps and dry-run say (the button showed the cost). Answers what happened, or null when the
    /// file is gone.
    /// </summary>
    public async Task<string?> StartPar2Async(Guid itemId, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        if (await FindAsync(context, itemId, cancellationToken) is not { } found)
            return null;
        if (par2Queue.Of(found.Job.Id) is { } repairing)
            return $"A PAR2 repair of {found.Job.Name} is {(repairing.Running ? "running" : "queued")} already.";
        var plan = await par2.PlanAsync(found.Job.Id, cancellationToken);
        if (!plan.Possible)
        {
            await audit.WriteAsync(HealthAudit.Entry(found.Item.Id, found.Job.Id, found.Item.Path, "par2-skipped", plan.Summary), cancellationToken);
            return "PAR2 cannot repair it: " + plan.Summary;
        }

        return await QueuePar2Async(context, found.Health, found.Item, found.Job, plan, userAsked: true, cancellationToken);
    }

    // A checked library file with its health row and its job, tracked by the context; null when gone.
    private static async Task<(FileHealth Health, DavItem Item, Job Job)?> FindAsync(NzbDavDbContext context, Guid itemId, CancellationToken cancellationToken)
    {
        var found = await context.FileHealth.Where(h => h.DavItemId == itemId)
            .Join(context.DavItems, h => h.DavItemId, i => i.Id, (h, i) => new { Health = h, Item = i })
            .Join(context.Jobs, x => x.Item.JobId, j => j.Id, (x, j) => new { x.Health, x.Item, Job = j })
            .FirstOrDefaultAsync(cancellationToken);
        return found is null ? null : (found.Health, found.Item, found.Job);
    }

    private async Task<string> QueuePar2Async(
        NzbDavDbContext context, FileHealth health, DavItem item, Job job, Par2.Par2RepairPlan plan, bool userAsked, CancellationToken cancellationToken)
    {
        var ticket = new Par2.Par2RepairTicket(job.Id, item.Id, job.Name, userAsked, plan.BytesToFetch);
        if (!par2Queue.TryEnqueue(ticket))
            return $"A PAR2 repair of {job.Name} is queued or running already.";
        // Stored before the repair starts: a server stopped mid-repair starts it again.
        health.Repair = RepairStatus.Repairing;
        health.RepairMessage = "PAR2 repair queued: " + plan.Summary;
        await context.SaveChangesAsync(cancellationToken);
        await audit.WriteAsync(HealthAudit.Entry(item.Id, job.Id, item.Path, "repair",
            $"Repairing with PAR2{(userAsked ? " (asked from the UI)" : "")}: {health.Detail}"), cancellationToken);
        return health.RepairMessage;
    }

    /// <summary>
    /// Runs a queued PAR2 repair (the worker's part). Repaired: the repairer made every file of the
    /// job Healthy. Not: a Broken file goes on to Sonarr/Radarr with PAR2's reason, a Degraded one
    /// keeps playing through its holes with the reason shown.
    /// </summary>
    public async Task RunPar2Async(Par2.Par2RepairTicket ticket, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(ticket);
        var result = await par2.RepairAsync(ticket.JobId, ticket, cancellationToken);
        // A repair cut short by a stop did not fail: its files stay Repairing for the next start.
        cancellationToken.ThrowIfCancellationRequested();
        if (result.Repaired)
        {
            metrics.Repair("par2_repaired");
            return;
        }

        metrics.Repair("par2_failed");
        await Par2EndedAsync(ticket, result.Message, cancellationToken);
    }

    /// <summary>A repair that threw: its files leave Repairing with the error, and go on as a failed repair would.</summary>
    public Task Par2CrashedAsync(Par2.Par2RepairTicket ticket, string error, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(ticket);
        metrics.Repair("par2_failed");
        return Par2EndedAsync(ticket, $"PAR2 repair failed: {error}. Nothing was stored and the file stays as it was.", cancellationToken, logged: false);
    }

    private async Task Par2EndedAsync(Par2.Par2RepairTicket ticket, string why, CancellationToken cancellationToken, bool logged = true)
    {
        List<Guid> broken;
        await using (var context = await contextFactory.CreateDbContextAsync(cancellationToken))
        {
            if (!logged && await context.DavItems.AsNoTracking().FirstOrDefaultAsync(i => i.Id == ticket.ItemId, cancellationToken) is { } item)
                await audit.WriteAsync(HealthAudit.Entry(item.Id, ticket.JobId, item.Path, "par2-failed", why), cancellationToken);

            var rows = await context.FileHealth.Where(h => h.Repair == RepairStatus.Repairing)
                .Join(context.DavItems.Where(i => i.JobId == ticket.JobId), h => h.DavItemId, i => i.Id, (h, i) => h)
                .ToListAsync(cancellationToken);
            foreach (var row in rows)
            {
                row.Repair = RepairStatus.None;
                row.RepairMessage = row.State == FileHealthState.Broken ? why : $"{why} It plays through its holes.";
            }

            await context.SaveChangesAsync(cancellationToken);
            broken = rows.Where(r => r.State == FileHealthState.Broken).Select(r => r.DavItemId).ToList();
        }

        // The queue still holds the ticket: RepairAsync must not see its own repair as running.
        foreach (var itemId in broken)
            await RepairAsync(itemId, ticket.UserAsked && itemId == ticket.ItemId, tryPar2: false, par2Failure: why, cancellationToken);
    }

    /// <summary>The user keeps the file as it is: no repair until they choose Repair now or un-ignore.</summary>
    public async Task<bool> SetIgnoredAsync(Guid itemId, bool ignored, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var found = await context.FileHealth.Where(h => h.DavItemId == itemId)
            .Join(context.DavItems, h => h.DavItemId, i => i.Id, (h, i) => new { Health = h, Item = i })
            .FirstOrDefaultAsync(cancellationToken);
        if (found is null)
            return false;
        found.Health.Repair = ignored ? RepairStatus.Ignored : RepairStatus.None;
        await context.SaveChangesAsync(cancellationToken);
        await audit.WriteAsync(HealthAudit.Entry(itemId, found.Item.JobId, found.Item.Path, ignored ? "ignore" : "unignore",
            ignored ? "Kept as it is by the user: no repair." : "Repair allowed again by the user."), cancellationToken);
        return true;
    }

    private async Task RemoveAsync(NzbDavDbContext context, DavItem item, Job job, ArrRepairOutcome outcome, CancellationToken cancellationToken)
    {
        holes.Remove(item.Id);
        await context.DavItems.Where(i => i.Id == item.Id).ExecuteDeleteAsync(cancellationToken);
        var reason = $"Broken: {item.Name} lost articles on every provider; {outcome.Instance ?? "Sonarr/Radarr"} marked the grab failed and searched for a replacement.";
        var filesLeft = await context.DavItems.AnyAsync(i => i.JobId == job.Id && !i.IsDirectory, cancellationToken);
        if (!filesLeft)
        {
            await context.DavItems.Where(i => i.JobId == job.Id).ExecuteDeleteAsync(cancellationToken);
            await context.Jobs.Where(j => j.Id == job.Id).ExecuteUpdateAsync(s => s
                .SetProperty(j => j.Status, JobStatus.Failed)
                .SetProperty(j => j.FailMessage, reason)
                .SetProperty(j => j.RemovedFromHistory, false), cancellationToken);
        }
        changes.Changed(job.Category);
        await audit.WriteAsync(HealthAudit.Entry(item.Id, job.Id, item.Path, "removed",
            filesLeft ? $"Removed from the library; the job keeps its other files. {reason}" : $"Removed from the library; the job moved to the history as Failed. {reason}"), cancellationToken);
        logger.LogWarning("Removed {Path} from the library after a repair: {Reason}", item.Path, reason);
    }

    private static string Describe(ArrCall call) =>
        $"{call.Instance}: {call.Method} {call.Path} → {(call.DryRun ? "not sent (dry run)" : call.Status is { } status ? status.ToString(System.Globalization.CultureInfo.InvariantCulture) : "no answer")}{(call.Error is null ? "" : " (" + call.Error + ")")}";
}

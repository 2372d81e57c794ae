using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;
using NzbDav.Usenet.Health;

namespace NzbDav.Server.Health;

/// <summary>
/// Checks one library file: STATs a sample (or everything), then folds the answers into what was
/// known. A segment becomes a confirmed hole only when every provider answered 430 in two checks at
/// least <see cref="HealthOptions.ConfirmDelay"/> apart; a first 430 makes it a suspect and brings
/// a full check forward to learn the extent; a timeout or fault changes nothing. The state follows
/// from the confirmed holes alone (see <see cref="HealthRules.Judge"/>), so a transient burst of
/// 430s or a provider that lost what a backup still has can never make a file worse than Unknown.
/// </summary>
public sealed class FileHealthChecker(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    HealthSweeper sweeper,
    HealthCheckProgress running,
    FileHoles holes,
    Par2.SegmentPatchStore patches,
    HealthAudit audit,
    IOptionsMonitor<HealthOptions> options,
    TimeProvider time,
    ILogger<FileHealthChecker> logger)
{
    /// <summary>Checks <paramref name="itemId"/>; null when it is not a library file (any more).</summary>
    public async Task<FileCheckResult?> CheckAsync(Guid itemId, bool full, CancellationToken cancellationToken)
    {
        var settings = options.CurrentValue;
        FileHealth health;
        DavItem item;
        string jobName;
        await using (var context = await contextFactory.CreateDbContextAsync(cancellationToken))
        {
            var found = await context.DavItems.AsNoTracking().Where(i => i.Id == itemId && !i.IsDirectory && i.Layout != null)
                .Join(context.Jobs, i => i.JobId, j => j.Id, (i, j) => new { Item = i, Job = j })
                .FirstOrDefaultAsync(cancellationToken);
            if (found is null)
                return null;
            item = found.Item;
            jobName = found.Job.Name;
            health = await context.FileHealth.AsNoTracking().FirstOrDefaultAsync(h => h.DavItemId == itemId, cancellationToken)
                ?? NewHealth(item, found.Job.CompletedAt ?? found.Job.AddedAt);
        }

        var segments = FileSegments.Of(DavFileLayoutCodec.Decode(item.Layout));
        if (segments.Count == 0)
            return null;
        var indexOf = new Dictionary<string, int>(segments.Count, StringComparer.Ordinal);
        for (var i = segments.Count - 1; i >= 0; i--)
            indexOf[segments.IdAt(i)] = i;
        var confirmed = Indexes(health.MissingIds, indexOf);
        var suspects = Indexes(health.SuspectIds, indexOf);

        var sample = HealthRules.Sample(segments.Count, full || health.FullCheckNext || settings.CheckEverything,
            settings.FullCheckSegments, settings.SampleFraction, confirmed.Concat(suspects), Random.Shared);
        var ids = new string[sample.Length];
        for (var k = 0; k < sample.Length; k++)
            ids[k] = segments.IdAt(sample[k]);
        ArticleAvailability[] results;
        using (running.Start(itemId, ids.Length, out var progress))
            results = await sweeper.CheckAsync(ids, progress, cancellationToken);
        var counts = StatSweepCounts.Of(results);

        var now = time.GetUtcNow().UtcDateTime;
        var confirmable = health.SuspectSince is { } since && now - since >= settings.ConfirmDelay;
        var fresh = new List<int>();
        // A segment a PAR2 repair rebuilt is whole for the reader, whatever the providers answer.
        var patched = patches.ForJob(item.JobId);
        var servedFromPatches = 0;
        for (var k = 0; k < sample.Length; k++)
        {
            var index = sample[k];
            var answer = results[k];
            if (answer == ArticleAvailability.Missing && patched is not null && patched.Contains(ids[k]))
            {
                answer = ArticleAvailability.Present;
                servedFromPatches++;
            }
            switch (answer)
            {
                case ArticleAvailability.Present:
                    confirmed.Remove(index);
                    suspects.Remove(index);
                    break;
                case ArticleAvailability.Missing when confirmed.Contains(index):
                    break;
                case ArticleAvailability.Missing when suspects.Contains(index) && confirmable:
                    suspects.Remove(index);
                    confirmed.Add(index);
                    break;
                case ArticleAvailability.Missing when !suspects.Contains(index):
                    fresh.Add(index);
                    break;
            }
        }
        if (fresh.Count > 0)
        {
            suspects.UnionWith(fresh);
            // Conservative: every suspect waits the full delay again from the newest sighting.
            health.SuspectSince = now;
        }
        else if (suspects.Count == 0)
        {
            health.SuspectSince = null;
        }

        var previous = health.State;
        var (judged, why) = HealthRules.Judge(segments, confirmed, settings.MaxConsecutiveMissing, settings.MaxMissingPercent);
        string? detail = why;
        if (judged == FileHealthState.Broken)
        {
            health.State = FileHealthState.Broken;
        }
        else if (suspects.Count > 0)
        {
            // Not confirmed yet: the verdict waits; confirmed holes (if any) keep the file Degraded meanwhile.
            health.State = confirmed.Count > 0 ? FileHealthState.Degraded : FileHealthState.Unknown;
            detail = (why is null ? "" : why + "; ") + $"suspected: {suspects.Count} segment(s) answered 430 on every provider once; a check {Delay(settings.ConfirmDelay)} later confirms or clears them";
        }
        else if (counts.Unknown > 0 && confirmed.Count == 0)
        {
            health.State = FileHealthState.Unknown;
            detail = $"{counts.Unknown} of {sample.Length} segments got no answer (timeouts or provider faults); retried later";
        }
        else
        {
            health.State = judged;
            if (counts.Unknown > 0)
                detail = (why is null ? "" : why + "; ") + $"{counts.Unknown} segment(s) got no answer";
        }

        if (servedFromPatches > 0)
            detail = (detail is null ? "" : detail + "; ") + $"{servedFromPatches} lost segment(s) served from their PAR2 repair";
        health.Detail = detail;
        health.LastCheckedAt = now;
        health.Urgent = false;
        health.CheckedSegments = sample.Length;
        health.UnknownSegments = counts.Unknown;
        health.SegmentCount = segments.Count;
        health.FullCheckNext = fresh.Count > 0;
        var confirmedIds = confirmed.Order().Select(segments.IdAt).ToList();
        health.MissingIds = HealthIds.Join(confirmedIds);
        health.MissingCount = confirmed.Count;
        health.SuspectIds = HealthIds.Join(suspects.Order().Select(segments.IdAt));
        health.CheckClaimedBy = null;
        health.NextCheckAt = suspects.Count > 0 ? now + settings.ConfirmDelay
            : counts.Unknown > 0 ? now + settings.UnknownRetry
            : HealthRules.NextCheck(now, health.ReleasedAt, settings.MinInterval, settings.MaxInterval, settings.Jitter, Random.Shared);
        if (health.State != FileHealthState.Broken && health.Repair is RepairStatus.Deferred or RepairStatus.ActionNeeded or RepairStatus.DryRun)
            health.Repair = RepairStatus.None;

        await SaveAsync(health, item, jobName, previous, confirmedIds, settings, cancellationToken);
        return new FileCheckResult(item.Id, item.Path, previous, health.State, sample.Length, counts.Present, counts.Missing, counts.Unknown,
            confirmed.Count, suspects.Count, health.NextCheckAt, detail);
    }

    /// <summary>"5 min", "90 s", "2 h": the confirmation delay as the detail words it.</summary>
    private static string Delay(TimeSpan delay) =>
        delay.TotalSeconds < 120 ? $"{delay.TotalSeconds:0} s" : delay.TotalMinutes < 120 ? $"{delay.TotalMinutes:0} min" : $"{delay.TotalHours:0.#} h";

    internal static FileHealth NewHealth(DavItem item, DateTime releasedAt) => new()
    {
        DavItemId = item.Id,
        JobId = item.JobId,
        State = FileHealthState.Unknown,
        ReleasedAt = releasedAt,
        NextCheckAt = releasedAt,
    };

    private async Task SaveAsync(FileHealth health, DavItem item, string jobName, FileHealthState previous, List<string> confirmedIds, HealthOptions settings, CancellationToken cancellationToken)
    {
        await using (var context = await contextFactory.CreateDbContextAsync(cancellationToken))
        {
            // The file may have been deleted while it was checked: then there is nothing to save.
            if (!await context.DavItems.AnyAsync(i => i.Id == item.Id, cancellationToken))
                return;
            var exists = await context.FileHealth.AnyAsync(h => h.DavItemId == health.DavItemId, cancellationToken);
            if (exists)
                context.FileHealth.Update(health);
            else
                context.FileHealth.Add(health);
            if (health.State == FileHealthState.Broken && confirmedIds.Count > 0)
            {
                var keep = confirmedIds.Take(settings.KnownMissingPerFile).ToList();
                var known = await context.KnownMissingArticles.Where(k => keep.Contains(k.MessageId)).Select(k => k.MessageId).ToListAsync(cancellationToken);
                var now = time.GetUtcNow().UtcDateTime;
                foreach (var id in keep.Except(known, StringComparer.Ordinal))
                    context.KnownMissingArticles.Add(new KnownMissingArticle { MessageId = id, FoundAt = now, JobName = jobName });
            }
            await context.SaveChangesAsync(cancellationToken);
        }

        if (health.State == FileHealthState.Degraded && settings.ZeroFillHoles)
            holes.Set(item.Id, confirmedIds);
        else
            holes.Remove(item.Id);

        if (previous != health.State)
        {
            var level = health.State is FileHealthState.Broken or FileHealthState.Degraded ? LogLevel.Warning : LogLevel.Information;
            logger.Log(level, "Health of {Path}: {Previous} → {State}: {Detail}", item.Path, previous, health.State, health.Detail ?? "all segments asked about are present");
            await audit.WriteAsync(HealthAudit.Entry(item.Id, item.JobId, item.Path, "state",
                $"{previous} → {health.State}: {health.Detail ?? "all segments asked about are present"}"), cancellationToken);
        }
    }

    private static HashSet<int> Indexes(string? stored, Dictionary<string, int> indexOf)
    {
        var set = new HashSet<int>();
        foreach (var id in HealthIds.Split(stored))
        {
            if (indexOf.TryGetValue(id, out var index))
                set.Add(index);
        }
        return set;
    }
}

using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;
using NzbDav.Server.Health;
using NzbDav.Server.Health.Par2;

namespace NzbDav.Server.WebUi;

/// <summary>
/// The Health page's calls: files per state, each file's state with its last and next check and the
/// holes found, the audit log, and the actions (check now, repair now, ignore).
/// </summary>
public static class UiHealthEndpoints
{
    private const int DefaultLimit = 100;
    private const int AuditShown = 200;

    public static void MapUiHealth(this RouteGroupBuilder api)
    {
        api.MapGet("/health", ViewAsync).RequireAuthorization().Produces<UiHealthView>().Produces<UiError>(StatusCodes.Status400BadRequest);
        api.MapPost("/health/files/{id}/check", CheckAsync).RequireAuthorization()
            .Produces<UiHealthActionResult>().Produces<UiError>(StatusCodes.Status404NotFound).Produces<UiError>(StatusCodes.Status503ServiceUnavailable);
        api.MapPost("/health/files/{id}/repair", RepairAsync).RequireAuthorization()
            .Produces<UiHealthActionResult>().Produces<UiError>(StatusCodes.Status404NotFound);
        api.MapGet("/health/files/{id}/par2", Par2PlanAsync).RequireAuthorization()
            .Produces<UiPar2Plan>().Produces<UiError>(StatusCodes.Status404NotFound);
        api.MapPost("/health/files/{id}/par2", Par2RepairAsync).RequireAuthorization()
            .Produces<UiHealthActionResult>().Produces<UiError>(StatusCodes.Status404NotFound);
        api.MapPost("/health/files/{id}/ignore", IgnoreAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiHealthIgnoreRequest))).Produces<UiHealthActionResult>()
            .Produces<UiError>(StatusCodes.Status400BadRequest).Produces<UiError>(StatusCodes.Status404NotFound);
    }

    private static async Task<IResult> ViewAsync(HttpContext context, IDbContextFactory<NzbDavDbContext> contexts, HealthMetrics metrics,
        HealthCheckProgress running, Par2Repairs repairs, SegmentPatchStore patches, IOptionsMonitor<HealthOptions> options, string? state, int? offset, int? limit)
    {
        var cancellationToken = context.RequestAborted;
        if (offset is < 0 || limit is < 1 or > 1000)
            return Results.BadRequest(new UiError("offset must be 0 or more and limit between 1 and 1000."));
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var counts = await db.FileHealth.GroupBy(h => h.State).Select(g => new { g.Key, Count = g.Count() }).ToListAsync(cancellationToken);
        var actionNeeded = await db.FileHealth.CountAsync(h => h.Repair == RepairStatus.ActionNeeded, cancellationToken);
        var query = db.FileHealth.AsNoTracking();
        switch (state?.ToLowerInvariant())
        {
            case null or "" or "all":
                break;
            case "action" or "action-needed":
                query = query.Where(h => h.Repair == RepairStatus.ActionNeeded);
                break;
            default:
                if (!Enum.TryParse<FileHealthState>(state, ignoreCase: true, out var wanted) || !Enum.IsDefined(wanted))
                    return Results.BadRequest(new UiError($"state '{state}' is not one of all, healthy, degraded, broken, unknown, action."));
                query = query.Where(h => h.State == wanted);
                break;
        }
        var total = await query.CountAsync(cancellationToken);
        // Problems first (Broken, Degraded, Unknown), then the next check due.
        var rows = await query
            .OrderBy(h => h.State == FileHealthState.Broken ? 0 : h.State == FileHealthState.Degraded ? 1 : h.State == FileHealthState.Unknown ? 2 : 3)
            .ThenBy(h => h.NextCheckAt)
            .Skip(offset ?? 0).Take(limit ?? DefaultLimit)
            .Join(db.DavItems, h => h.DavItemId, i => i.Id, (h, i) => new { Health = h, i.Path, i.Name, i.Size, i.JobId, i.Layout })
            .ToListAsync(cancellationToken);
        var audit = await db.HealthAudit.AsNoTracking().OrderByDescending(a => a.Id).Take(AuditShown)
            .Select(a => new UiHealthAuditEntry(a.Id, new DateTimeOffset(a.At, TimeSpan.Zero), a.Path, a.Action, a.Detail)).ToListAsync(cancellationToken);
        var (present, missing, unknown) = metrics.StatTotals;
        var settings = options.CurrentValue;
        return Results.Ok(new UiHealthView(
            new UiHealthCounts(Count(FileHealthState.Healthy), Count(FileHealthState.Degraded), Count(FileHealthState.Broken), Count(FileHealthState.Unknown), actionNeeded),
            new UiHealthStats(present, missing, unknown),
            new UiHealthPolicy(settings.Enabled, settings.ImportCheck, settings.Repair, settings.DryRun, settings.CheckEverything,
                settings.MaxConsecutiveMissing, settings.MaxMissingPercent, settings.ZeroFillHoles, settings.RepairWindow.TotalDays,
                settings.ConfirmDelay.TotalMinutes),
            total,
            rows.Select(r => File(r.Health, r.Path, r.Name, r.Size, running) with
            {
                Par2 = Par2Running(repairs.Of(r.JobId)),
                Patches = UiHealthPatches.Of(patches.ListJob(r.JobId), r.Layout),
            }).ToList(),
            audit));

        int Count(FileHealthState s) => counts.FirstOrDefault(c => c.Key == s)?.Count ?? 0;
    }

    private static async Task<IResult> CheckAsync(HttpContext context, HealthCheckService service, IDbContextFactory<NzbDavDbContext> contexts, HealthAudit audit, string id)
    {
        if (!Guid.TryParse(id, out var itemId))
            return Results.NotFound(new UiError($"There is no library file with id {id}."));
        var cancellationToken = context.RequestAborted;
        var item = await FindAsync(contexts, itemId, cancellationToken);
        if (item is null)
            return Results.NotFound(new UiError($"There is no library file with id {id}."));
        await audit.WriteAsync(HealthAudit.Entry(itemId, item.JobId, item.Path, "check-now", "Full check asked from the UI."), cancellationToken);
        var result = await service.CheckNowAsync(itemId, full: true, cancellationToken);
        if (result is null)
        {
            // Still listed but nothing to ask a provider about: an empty file is always whole.
            return await FindAsync(contexts, itemId, cancellationToken) is null
                ? Results.NotFound(new UiError($"{item.Path} is no longer in the library."))
                : Results.Ok(new UiHealthActionResult($"{item.Path} has no articles to check (it is empty), so it cannot lose any.", await FileAsync(contexts, itemId, cancellationToken)));
        }
        var message = $"Checked {result.Checked} segments: {result.Present} present, {result.Missing} missing on every provider, {result.Unknown} without an answer. State: {result.State}."
            + (result.State == FileHealthState.Broken ? " A Broken file goes to repair through Sonarr/Radarr unless it is ignored or waits for you; the audit log says what happened." : "");
        return Results.Ok(new UiHealthActionResult(message, await FileAsync(contexts, itemId, cancellationToken)));
    }

    private static async Task<IResult> RepairAsync(HttpContext context, HealthRepairer repairer, IDbContextFactory<NzbDavDbContext> contexts, string id)
    {
        if (!Guid.TryParse(id, out var itemId) || await FindAsync(contexts, itemId, context.RequestAborted) is null)
            return Results.NotFound(new UiError($"There is no library file with id {id}."));
        var message = await repairer.RepairAsync(itemId, userAsked: true, tryPar2: false, context.RequestAborted) ?? "Nothing to repair.";
        return Results.Ok(new UiHealthActionResult(message, await FileAsync(contexts, itemId, context.RequestAborted)));
    }

    private static async Task<IResult> Par2PlanAsync(HttpContext context, NzbDav.Server.Health.Par2.Par2JobRepairer repairer, IDbContextFactory<NzbDavDbContext> contexts, string id)
    {
        if (!Guid.TryParse(id, out var itemId) || await FindAsync(contexts, itemId, context.RequestAborted) is not { } item)
            return Results.NotFound(new UiError($"There is no library file with id {id}."));
        var plan = await repairer.PlanAsync(item.JobId, context.RequestAborted);
        return Results.Ok(new UiPar2Plan(plan.Possible, plan.Summary, plan.MissingSlices, plan.RecoveryAvailable, plan.BytesToFetch, plan.EstimatedSeconds));
    }

    private static async Task<IResult> Par2RepairAsync(HttpContext context, HealthRepairer repairer, IDbContextFactory<NzbDavDbContext> contexts,
        Par2Repairs repairs, SegmentPatchStore patches, string id)
    {
        if (!Guid.TryParse(id, out var itemId) || await FindAsync(contexts, itemId, context.RequestAborted) is null)
            return Results.NotFound(new UiError($"There is no library file with id {id}."));
        // Queued, not awaited: a repair reads the whole release. The file's row shows its progress.
        var message = await repairer.StartPar2Async(itemId, context.RequestAborted) ?? $"{id} is no longer checked.";
        return Results.Ok(new UiHealthActionResult(message, await FileAsync(contexts, itemId, context.RequestAborted, repairs, patches)));
    }

    private static async Task<IResult> IgnoreAsync(HttpContext context, HealthRepairer repairer, IDbContextFactory<NzbDavDbContext> contexts, string id)
    {
        var (request, invalid) = await UiSessionEndpoints.ReadAsync<UiHealthIgnoreRequest>(context);
        if (invalid is not null)
            return invalid;
        if (!Guid.TryParse(id, out var itemId) || !await repairer.SetIgnoredAsync(itemId, request!.Ignored, context.RequestAborted))
            return Results.NotFound(new UiError($"There is no checked library file with id {id}."));
        var message = request.Ignored ? "Kept as it is: no repair will be made." : "Repairs allowed again.";
        return Results.Ok(new UiHealthActionResult(message, await FileAsync(contexts, itemId, context.RequestAborted)));
    }

    private static async Task<DavItem?> FindAsync(IDbContextFactory<NzbDavDbContext> contexts, Guid itemId, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.DavItems.AsNoTracking().FirstOrDefaultAsync(i => i.Id == itemId && !i.IsDirectory, cancellationToken);
    }

    private static async Task<UiHealthFile?> FileAsync(IDbContextFactory<NzbDavDbContext> contexts, Guid itemId, CancellationToken cancellationToken,
        Par2Repairs? repairs = null, SegmentPatchStore? patches = null)
    {
        // After an action the file's own check (if any) has ended: nothing running to show.
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var row = await db.FileHealth.AsNoTracking().Where(h => h.DavItemId == itemId)
            .Join(db.DavItems, h => h.DavItemId, i => i.Id, (h, i) => new { Health = h, i.Path, i.Name, i.Size, i.JobId, i.Layout })
            .FirstOrDefaultAsync(cancellationToken);
        return row is null ? null : File(row.Health, row.Path, row.Name, row.Size, null) with
        {
            Par2 = Par2Running(repairs?.Of(row.JobId)),
            Patches = patches is null ? null : UiHealthPatches.Of(patches.ListJob(row.JobId), row.Layout),
        };
    }

    private static UiPar2Running? Par2Running(Par2RepairProgress? progress) => progress is null ? null : new UiPar2Running(
        progress.Running, progress.Done, progress.Planned, progress.BytesPerSecond, progress.Remaining?.TotalSeconds);

    private static UiHealthFile File(FileHealth h, string path, string name, long size, HealthCheckProgress? running) => new(
        h.DavItemId, path, name, size, HealthMetrics.StateName(h.State), RepairName(h.Repair),
        Utc(h.LastCheckedAt), Utc(h.NextCheckAt)!.Value, h.Urgent, h.SegmentCount, h.CheckedSegments, h.UnknownSegments,
        h.MissingCount, HealthIds.Split(h.SuspectIds).Length, h.Detail, h.RepairMessage, Utc(h.LastRepairAt), h.RepairAttempts)
    {
        Checking = running?.Of(h.DavItemId) is { } p ? new UiHealthCheckRunning(p.Total, p.Done, p.Present, p.Missing, p.Unknown) : null,
        Par2 = null,
        Patches = null,
    };

    internal static string RepairName(RepairStatus status) => status switch
    {
        RepairStatus.ActionNeeded => "action-needed",
        RepairStatus.DryRun => "dry-run",
        _ => status.ToString().ToLowerInvariant(),
    };

    private static DateTimeOffset? Utc(DateTime? at) => at is { } value ? new DateTimeOffset(DateTime.SpecifyKind(value, DateTimeKind.Utc)) : null;
}

/// <summary>The Health page: counts, STAT totals since start, the policy in force, one page of files, the newest audit entries.</summary>
public sealed record UiHealthView(UiHealthCounts Counts, UiHealthStats Stats, UiHealthPolicy Policy, int Total, IReadOnlyList<UiHealthFile> Files, IReadOnlyList<UiHealthAuditEntry> Audit);

/// <summary>Files per state; <see cref="ActionNeeded"/> counts files whose repair waits for the user (any state).</summary>
public sealed record UiHealthCounts(int Healthy, int Degraded, int Broken, int Unknown, int ActionNeeded);

/// <summary>STATs answered since the server started, by outcome.</summary>
public sealed record UiHealthStats(long Present, long Missing, long Unknown);

public sealed record UiHealthPolicy(bool ScheduledChecks, bool ImportCheck, bool Repair, bool DryRun, bool CheckEverything,
    int MaxConsecutiveMissing, double MaxMissingPercent, bool ZeroFillHoles, double RepairWindowDays, double ConfirmDelayMinutes);

/// <summary>A check of the file running now: segments it asks about, answered so far, and the answers by kind.</summary>
public sealed record UiHealthCheckRunning(int Segments, int Answered, int Present, int Missing, int Unknown);

/// <summary>One library file's health. State: healthy, degraded, broken, unknown. Repair: none, deferred, action-needed, ignored, dry-run, repairing.</summary>
public sealed record UiHealthFile(
    Guid Id, string Path, string Name, long Size, string State, string Repair,
    DateTimeOffset? LastCheckedAt, DateTimeOffset NextCheckAt, bool Urgent,
    int Segments, int CheckedSegments, int UnknownSegments, int MissingSegments, int SuspectSegments,
    string? Detail, string? RepairMessage, DateTimeOffset? LastRepairAt, int RepairAttempts)
{
    /// <summary>The check running now, with how far it got; null when none runs.</summary>
    public required UiHealthCheckRunning? Checking { get; init; }

    /// <summary>The PAR2 repair of the file's release, queued or running; null when none is.</summary>
    public required UiPar2Running? Par2 { get; init; }

    /// <summary>The bytes of this file served from PAR2 repair patches; null when it has none.</summary>
    public required UiHealthPatches? Patches { get; init; }
}

/// <summary>A PAR2 repair queued or running: bytes read of those planned, the rate so far, and the time left at it (null before it is known).</summary>
public sealed record UiPar2Running(bool Running, long Done, long Planned, double BytesPerSecond, double? RemainingSeconds);

/// <summary>A run of the file's bytes served from a repair's patch: from <see cref="Start"/>, <see cref="Length"/> bytes.</summary>
public sealed record UiHealthPatchRange(long Start, long Length);

/// <summary>The file's patches: segments and bytes rebuilt, when, and their byte ranges in the file (adjacent ones joined, the first 100).</summary>
public sealed record UiHealthPatches(int Segments, long Bytes, DateTimeOffset RepairedAt, IReadOnlyList<UiHealthPatchRange> Ranges)
{
    private const int RangesShown = 100;

    /// <summary>The patches among <paramref name="jobPatches"/> that lie in the file <paramref name="layout"/> describes; null when none do.</summary>
    public static UiHealthPatches? Of(IReadOnlyCollection<SegmentPatch> jobPatches, byte[]? layout)
    {
        if (jobPatches.Count == 0 || layout is null)
            return null;
        var byId = jobPatches.ToDictionary(p => p.MessageId, StringComparer.Ordinal);
        var parts = DavFileLayoutCodec.Decode(layout).Parts;
        var ranges = new List<UiHealthPatchRange>();
        var segments = 0;
        long bytes = 0;
        var repairedAt = DateTime.MinValue;
        long at = 0;
        foreach (var part in parts)
        {
            for (var i = 0; i < part.MessageIds.Count; i++)
            {
                if (!byId.TryGetValue(part.MessageIds[i], out var patch))
                    continue;
                // The segment's bytes that fall in the part's range, at their place in the file.
                var from = Math.Max(i * part.PartSize, part.RangeOffset);
                var to = Math.Min((i + 1) * part.PartSize, part.RangeOffset + part.RangeLength);
                if (to <= from)
                    continue;
                segments++;
                bytes += to - from;
                repairedAt = patch.CreatedAt > repairedAt ? patch.CreatedAt : repairedAt;
                var start = at + from - part.RangeOffset;
                if (ranges.Count > 0 && ranges[^1].Start + ranges[^1].Length == start)
                    ranges[^1] = ranges[^1] with { Length = ranges[^1].Length + to - from };
                else
                    ranges.Add(new UiHealthPatchRange(start, to - from));
            }

            at += part.RangeLength;
        }

        return segments == 0 ? null : new UiHealthPatches(segments, bytes, new DateTimeOffset(DateTime.SpecifyKind(repairedAt, DateTimeKind.Utc)), ranges.Take(RangesShown).ToList());
    }
}

public sealed record UiHealthAuditEntry(long Id, DateTimeOffset At, string Path, string Action, string Detail);

public sealed record UiHealthIgnoreRequest(bool Ignored);

/// <summary>What an action did, and the file as it is now (null when it left the library).</summary>
public sealed record UiHealthActionResult(string Message, UiHealthFile? File);

/// <summary>What a PAR2 repair of a file's release would fetch and how long that takes at the last repair's rate (null before one ran), or why it cannot be made.</summary>
public sealed record UiPar2Plan(bool Possible, string Summary, int MissingSlices, int RecoveryAvailable, long BytesToFetch, double? EstimatedSeconds);

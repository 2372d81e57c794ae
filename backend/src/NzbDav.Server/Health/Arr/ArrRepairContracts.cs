namespace NzbDav.Server.Health.Arr;

/// <summary>Replaces a broken file through the Sonarr or Radarr that grabbed it (see docs/health.md, "Repair through Sonarr and Radarr").</summary>
public interface IArrRepairService
{
    Task<ArrRepairOutcome> RepairAsync(ArrRepairRequest request, CancellationToken cancellationToken);
}

/// <param name="FilePath">Our virtual path of the broken file, e.g. "/content/tv/Show.S01E01.1080p-GRP/Show.S01E01.mkv".</param>
/// <param name="RecentRepairs">Items replaced inside the repair window: a file of one of them is not repaired again (<see cref="ArrRepairResult.RecentlyRepaired"/>).</param>
public sealed record ArrRepairRequest(string NzoId, string JobName, string Category, string FilePath, bool DryRun, IReadOnlyList<ArrRecentRepair>? RecentRepairs = null);

/// <summary>An episode (Sonarr) or movie (Radarr) of <paramref name="Instance"/> that a repair replaced at <paramref name="RepairedAt"/>.</summary>
public sealed record ArrRecentRepair(string Instance, int ItemId, DateTime RepairedAt, string JobName);

/// <summary>RecentlyRepaired: the file's episodes or movie were replaced inside the window already, and nothing was changed.</summary>
public enum ArrRepairResult { Repaired, DryRun, Deferred, NotFound, RecentlyRepaired }

/// <summary>
/// Instance: which Arr owned the download (null when none did). Reason: one human sentence for the
/// audit log and UI. Replaced: the episodes or movie a repair (or dry run) searched for.
/// </summary>
/// <param name="Search">Who searched for the replacement: nobody (yet), NzbDav's explicit search command, or the Arr itself after the grab was marked failed.</param>
public sealed record ArrRepairOutcome(
    ArrRepairResult Result, string? Instance, string Reason, IReadOnlyList<ArrCall> Calls, IReadOnlyList<int>? Replaced = null, ArrSearch Search = ArrSearch.None);

/// <summary>Who started the search for a replacement.</summary>
public enum ArrSearch
{
    None,

    /// <summary>NzbDav, with <c>EpisodeSearch</c>/<c>MoviesSearch</c>.</summary>
    NzbDav,

    /// <summary>The Arr itself: its "Redownload Failed" is on, and marking the grab failed starts one.</summary>
    Arr,
}

/// <summary>One HTTP call made (or, in dry-run, that would have been made): Status null when no answer arrived.</summary>
public sealed record ArrCall(string Instance, string Method, string Path, int? Status, string? Error, bool DryRun);

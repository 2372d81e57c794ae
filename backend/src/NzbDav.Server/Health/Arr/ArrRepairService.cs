using System.Globalization;
using Microsoft.Extensions.Options;

namespace NzbDav.Server.Health.Arr;

/// <summary>
/// The repair of one broken file through the Arr that grabbed its download. It asks the enabled
/// instances that serve the job's category for the history of the download (the SABnzbd nzo_id is
/// the Arr's <c>downloadId</c>); the one whose history has the grab owns it, and only that one is
/// changed: (a) the grab is marked failed, which blocklists the release; (b) the file record
/// imported from this download for our file (matched by name in a season pack) is deleted — or,
/// when nothing was imported yet and the download is still queued, it is removed from the queue
/// with blocklisting instead of (a); (c) a search is started for the episodes or the movie. A step
/// runs only after the one before it was accepted. An instance that cannot be asked defers the
/// repair (it may own the download); only when every one answered and none grabbed it is the
/// download not found. Repairs run one at a time, so two broken files of one pack do not
/// blocklist it twice: the second sees the first's failed record and skips that step.
/// </summary>
public sealed class ArrRepairService(ArrClient client, IOptionsMonitor<ArrOptions> options, ILogger<ArrRepairService> logger)
    : IArrRepairService, IDisposable
{
    private readonly SemaphoreSlim _oneAtATime = new(1, 1);

    public void Dispose() => _oneAtATime.Dispose();

    public async Task<ArrRepairOutcome> RepairAsync(ArrRepairRequest request, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentException.ThrowIfNullOrEmpty(request.NzoId);
        await _oneAtATime.WaitAsync(cancellationToken);
        try
        {
            var outcome = await RepairOneAsync(request, cancellationToken);
            var level = outcome.Result is ArrRepairResult.Deferred ? LogLevel.Warning : LogLevel.Information;
            logger.Log(level, "Arr repair of {File} (download {NzoId}): {Result} by {Instance}: {Reason}",
                request.FilePath, request.NzoId, outcome.Result, outcome.Instance ?? "no instance", outcome.Reason);
            return outcome;
        }
        finally
        {
            _oneAtATime.Release();
        }
    }

    private async Task<ArrRepairOutcome> RepairOneAsync(ArrRepairRequest request, CancellationToken cancellationToken)
    {
        var calls = new List<ArrCall>();
        var configured = options.CurrentValue.Instances;
        if (configured.Count == 0)
        {
            return new(ArrRepairResult.NotFound, null,
                "No Sonarr or Radarr is configured, so nothing could replace the file: add them in Settings → Sonarr and Radarr.", calls);
        }

        var enabled = configured.Where(static i => i.Enabled).ToList();
        if (enabled.Count == 0)
        {
            return new(ArrRepairResult.NotFound, null,
                "Every configured Sonarr and Radarr is disabled, so nothing could replace the file: enable one in Settings → Sonarr and Radarr.", calls);
        }

        // The instances that say they send this category, and those that take any; when none
        // matches, every enabled one is asked (the lookup reads only, and the download is somebody's).
        var candidates = enabled.Where(i => i.EffectiveCategories().Count == 0 || i.Lists(request.Category)).ToList();
        if (candidates.Count == 0)
        {
            candidates = enabled;
        }

        var unanswered = new List<string>();
        foreach (var instance in candidates)
        {
            var history = await client.GetDownloadHistoryAsync(instance, request.NzoId, cancellationToken);
            calls.AddRange(history.Calls);
            if (!history.Succeeded)
            {
                unanswered.Add($"{Describe(instance)} (its history {Repair.Step(history)})");
                continue;
            }

            var records = history.Value!.Where(r => string.Equals(r.DownloadId, request.NzoId, StringComparison.OrdinalIgnoreCase)).ToList();
            var grabs = records.Where(static r => r.Is(ArrHistoryRecord.Grabbed)).ToList();
            if (grabs.Count > 0)
            {
                return await RepairOnAsync(new Repair(instance, request, records, grabs, calls), cancellationToken);
            }
        }

        var asked = string.Join(", ", candidates.Select(Describe));
        if (unanswered.Count > 0)
        {
            return new(ArrRepairResult.Deferred, null,
                $"Could not ask {string.Join("; ", unanswered)}, which may have grabbed download {request.NzoId}; nothing was changed and the repair is tried again later.", calls);
        }

        return new(ArrRepairResult.NotFound, null,
            $"No Sonarr or Radarr asked ({asked}) grabbed download {request.NzoId} ('{request.JobName}'), so nothing was changed: replace the file by hand.", calls);
    }

    private async Task<ArrRepairOutcome> RepairOnAsync(Repair repair, CancellationToken cancellationToken)
    {
        var (instance, request, records, grabs, _) = repair;
        if (KindMismatch(instance, grabs) is { } mismatch)
        {
            return repair.Stop(ArrRepairResult.Deferred, mismatch);
        }

        var alreadyFailed = records.Any(static r => r.Is(ArrHistoryRecord.DownloadFailed));
        var imports = records.Where(static r => r.Is(ArrHistoryRecord.DownloadFolderImported)).ToList();
        if (imports.Count == 0)
        {
            return await RepairNotImportedAsync(repair, alreadyFailed, cancellationToken);
        }

        // Which import records are our file: in a season pack one download imported many files.
        var fileName = LastSegment(request.FilePath);
        var matched = imports.Where(r => NameMatches(r.DataValue("droppedPath"), fileName) || NameMatches(r.DataValue("importedPath"), fileName)).ToList();
        string? matching = null;
        if (matched.Count == 0)
        {
            if (imports.Any(static r => !string.IsNullOrEmpty(r.DataValue("droppedPath")) || !string.IsNullOrEmpty(r.DataValue("importedPath"))))
            {
                return repair.Stop(ArrRepairResult.NotFound,
                    $"{Describe(instance)} imported {imports.Count} file(s) from '{repair.Grab.SourceTitle}', none of them named '{fileName}', so nothing was changed: replace the file by hand.");
            }

            matched = imports;
            matching = $"its import records name no file, so every {Item(instance)} imported from the download is replaced";
        }

        var items = matched.Select(r => ItemId(instance, r)).Where(static id => id > 0).Distinct().Order().ToList();
        if (repair.RecentlyRepaired(items) is { } again)
        {
            return again;
        }

        // Newer versions name the file record each import made; older ones do not, and then the item's file now is taken.
        var importedFileIds = new Dictionary<int, int>();
        foreach (var record in matched)
        {
            if (int.TryParse(record.DataValue("fileId"), NumberStyles.None, CultureInfo.InvariantCulture, out var fileId) && fileId > 0)
            {
                importedFileIds.TryAdd(ItemId(instance, record), fileId);
            }
        }

        // With "Redownload Failed" on, the Arr searches by itself once the grab is marked failed; the
        // files go first then, so that search finds the items without a file and grabs a replacement.
        var done = new List<string>();
        var notes = new List<string>();
        var arrSearches = !alreadyFailed && await ArrSearchesAsync(repair, notes, cancellationToken);
        if (alreadyFailed)
        {
            done.Add("found the grab already marked failed");
        }
        else if (!arrSearches && await MarkFailedAsync(repair, done, cancellationToken) is { } failedStop)
        {
            return failedStop;
        }

        // (b) The file records those items have now: one file may hold several episodes.
        var deletes = new List<(int FileId, string Label)>();
        var search = new List<int>();
        foreach (var item in items)
        {
            var (lookup, fileId, label) = await LookUpAsync(instance, item, cancellationToken);
            repair.Calls.AddRange(lookup.Calls);
            if (!lookup.Succeeded)
            {
                return repair.Stop(ArrRepairResult.Deferred,
                    $"{Describe(instance)}: looking up {Item(instance)} {item} {Repair.Step(lookup)} after it {Join(done)}; no file was deleted and no search started.");
            }

            if (fileId == 0)
            {
                notes.Add($"{label} had no file");
                search.Add(item);
            }
            else if (importedFileIds.TryGetValue(item, out var imported) && imported != fileId)
            {
                // Its file now is another import (an upgrade since): ours is no longer in its library.
                notes.Add($"{label} already has another file ({fileId}), left as it is");
            }
            else
            {
                if (!deletes.Any(d => d.FileId == fileId))
                {
                    deletes.Add((fileId, label));
                }

                search.Add(item);
            }
        }

        foreach (var (fileId, label) in deletes)
        {
            var deleted = await client.DeleteFileAsync(instance, fileId, request.DryRun, cancellationToken);
            if (repair.Write(deleted, logger) is { } stop)
            {
                return repair.Stop(ArrRepairResult.Deferred,
                    $"{Describe(instance)}: deleting {FileKind(instance)} {fileId} ({label}) {stop} after it {Join(done)}; no search was started.");
            }

            done.Add($"deleted {FileKind(instance)} {fileId} ({label})");
        }

        if (arrSearches)
        {
            // (a) last: the blocklisting, and the Arr's own search for what is now missing.
            if (await MarkFailedAsync(repair, done, cancellationToken) is { } stop)
            {
                return stop;
            }

            done.Add($"left the search to {Describe(instance)} (its Redownload Failed is on, so marking the grab failed starts one{(search.Count > 0 ? $" for {Item(instance)} {string.Join(", ", search)}" : "")})");
            notes.Insert(0, matching ?? "");
            return repair.Done(done, notes, search, ArrSearch.Arr);
        }

        // (c) The search for the items whose file is gone.
        if (search.Count > 0)
        {
            var searched = await client.SearchAsync(instance, search, request.DryRun, cancellationToken);
            if (repair.Write(searched, logger) is { } stop)
            {
                return repair.Stop(ArrRepairResult.Deferred, $"{Describe(instance)}: starting the search {stop} after it {Join(done)}.", search);
            }

            done.Add($"started a search for {Item(instance)} {string.Join(", ", search)}");
        }

        notes.Insert(0, matching ?? "");
        return repair.Done(done, notes, search, search.Count > 0 ? ArrSearch.NzbDav : ArrSearch.None);
    }

    /// <summary>(a) The grab marked failed, which blocklists the release; null when accepted, else the stop.</summary>
    private async Task<ArrRepairOutcome?> MarkFailedAsync(Repair repair, List<string> done, CancellationToken cancellationToken)
    {
        var failed = await client.MarkFailedAsync(repair.Instance, repair.Grab.Id, repair.Request.DryRun, cancellationToken);
        if (repair.Write(failed, logger) is { } stop)
        {
            var after = done.Count == 0 ? "" : $" after it {Join(done)}";
            return repair.Stop(ArrRepairResult.Deferred, $"{Describe(repair.Instance)}: marking the grab of '{repair.Grab.SourceTitle}' as failed {stop}{after}; nothing else was done.");
        }

        done.Add($"marked the grab of '{repair.Grab.SourceTitle}' failed (blocklisted)");
        return null;
    }

    /// <summary>
    /// Whether the Arr searches by itself once a grab is marked failed ("Redownload Failed", read
    /// from its download-client settings). When the setting cannot be read NzbDav searches, and says so.
    /// </summary>
    private async Task<bool> ArrSearchesAsync(Repair repair, List<string> notes, CancellationToken cancellationToken)
    {
        var config = await client.GetDownloadClientConfigAsync(repair.Instance, cancellationToken);
        repair.Calls.AddRange(config.Calls);
        if (config.Succeeded)
        {
            return config.Value!.AutoRedownloadFailed;
        }

        notes.Add($"its Redownload Failed setting could not be read {Repair.Step(config)}, so NzbDav searched itself");
        return false;
    }

    /// <summary>Nothing imported yet: a download still queued is removed from the queue with blocklisting, otherwise its grab is marked failed; then the grabbed items are searched.</summary>
    private async Task<ArrRepairOutcome> RepairNotImportedAsync(Repair repair, bool alreadyFailed, CancellationToken cancellationToken)
    {
        var (instance, request, _, grabs, _) = repair;
        var items = grabs.Select(r => ItemId(instance, r)).Where(static id => id > 0).Distinct().Order().ToList();
        if (repair.RecentlyRepaired(items) is { } again)
        {
            return again;
        }

        var done = new List<string>();
        var notes = new List<string>();
        // With "Redownload Failed" on, removing with blocklist or marking failed makes the Arr search itself.
        var arrSearches = !alreadyFailed && await ArrSearchesAsync(repair, notes, cancellationToken);
        if (alreadyFailed)
        {
            done.Add("found the grab already marked failed");
        }
        else
        {
            var queue = await client.FindQueueRecordsAsync(instance, request.NzoId, cancellationToken);
            repair.Calls.AddRange(queue.Calls);
            if (!queue.Succeeded)
            {
                return repair.Stop(ArrRepairResult.Deferred, $"{Describe(instance)}: reading its queue {Repair.Step(queue)}; nothing was changed.");
            }

            if (queue.Value!.Count > 0)
            {
                // Removing with blocklist marks the download failed itself: (a) would blocklist it twice.
                var removed = await client.RemoveFromQueueAsync(instance, queue.Value[0].Id, request.DryRun, cancellationToken);
                if (repair.Write(removed, logger) is { } stop)
                {
                    return repair.Stop(ArrRepairResult.Deferred, $"{Describe(instance)}: removing '{repair.Grab.SourceTitle}' from its queue {stop}; nothing else was done.");
                }

                done.Add($"removed '{repair.Grab.SourceTitle}', not imported yet, from its queue and blocklisted it");
            }
            else
            {
                var failed = await client.MarkFailedAsync(instance, repair.Grab.Id, request.DryRun, cancellationToken);
                if (repair.Write(failed, logger) is { } stop)
                {
                    return repair.Stop(ArrRepairResult.Deferred, $"{Describe(instance)}: marking the grab of '{repair.Grab.SourceTitle}' as failed {stop}; nothing else was done.");
                }

                done.Add($"marked the grab of '{repair.Grab.SourceTitle}' failed (blocklisted; nothing had been imported)");
            }
        }

        if (arrSearches)
        {
            done.Add($"left the search to {Describe(instance)} (its Redownload Failed is on, so that starts one{(items.Count > 0 ? $" for {Item(instance)} {string.Join(", ", items)}" : "")})");
            return repair.Done(done, notes, items, ArrSearch.Arr);
        }

        if (items.Count > 0)
        {
            var searched = await client.SearchAsync(instance, items, request.DryRun, cancellationToken);
            if (repair.Write(searched, logger) is { } stop)
            {
                return repair.Stop(ArrRepairResult.Deferred, $"{Describe(instance)}: starting the search {stop} after it {Join(done)}.", items);
            }

            done.Add($"started a search for {Item(instance)} {string.Join(", ", items)}");
        }

        return repair.Done(done, notes, items, items.Count > 0 ? ArrSearch.NzbDav : ArrSearch.None);
    }

    private async Task<(ArrResult<bool> Lookup, int FileId, string Label)> LookUpAsync(ArrInstanceOptions instance, int item, CancellationToken cancellationToken)
    {
        if (instance.Kind is ArrKind.Sonarr)
        {
            var episode = await client.GetEpisodeAsync(instance, item, cancellationToken);
            return (new(episode.Outcome, episode.Succeeded, episode.Calls), episode.Value?.FileId ?? 0, episode.Value?.Label ?? $"episode {item}");
        }

        var movie = await client.GetMovieAsync(instance, item, cancellationToken);
        return (new(movie.Outcome, movie.Succeeded, movie.Calls), movie.Value?.FileId ?? 0, movie.Value?.Label ?? $"movie {item}");
    }

    /// <summary>A Radarr configured as a Sonarr (or the reverse) answers history too; its records say which it is, before anything is changed.</summary>
    private static string? KindMismatch(ArrInstanceOptions instance, IReadOnlyList<ArrHistoryRecord> grabs)
    {
        var sonarrLike = grabs.Any(static r => r.EpisodeId > 0);
        var radarrLike = grabs.Any(static r => r.MovieId > 0);
        return instance.Kind switch
        {
            ArrKind.Sonarr when !sonarrLike && radarrLike =>
                $"'{instance.Name}' is configured as a Sonarr but its history names movies, as a Radarr's does: correct its kind in Settings. Nothing was changed.",
            ArrKind.Radarr when !radarrLike && sonarrLike =>
                $"'{instance.Name}' is configured as a Radarr but its history names episodes, as a Sonarr's does: correct its kind in Settings. Nothing was changed.",
            _ when !sonarrLike && !radarrLike =>
                $"{Describe(instance)} grabbed the download but its history names no {Item(instance)}; nothing was changed.",
            _ => null,
        };
    }

    private static int ItemId(ArrInstanceOptions instance, ArrHistoryRecord record) =>
        instance.Kind is ArrKind.Sonarr ? record.EpisodeId : record.MovieId;

    private static string Item(ArrInstanceOptions instance) => instance.Kind is ArrKind.Sonarr ? "episode" : "movie";

    private static string FileKind(ArrInstanceOptions instance) => instance.Kind is ArrKind.Sonarr ? "episode file" : "movie file";

    private static string Describe(ArrInstanceOptions instance) => $"{instance.Kind} '{instance.Name}'";

    private static string Join(List<string> done) => done.Count == 0 ? "did nothing" : string.Join(", ", done);

    /// <summary>The last segment of a path written with either separator (an Arr on Windows reports backslashes).</summary>
    private static string LastSegment(string path) => path.TrimEnd('/', '\\').Split('/', '\\')[^1];

    private static bool NameMatches(string? path, string fileName) =>
        !string.IsNullOrEmpty(path) && fileName.Length > 0 && string.Equals(LastSegment(path), fileName, StringComparison.OrdinalIgnoreCase);

    /// <summary>One repair on the owning instance: the calls so far, and the outcome built from them.</summary>
    private sealed record Repair(
        ArrInstanceOptions Instance, ArrRepairRequest Request, List<ArrHistoryRecord> Records, List<ArrHistoryRecord> Grabs, List<ArrCall> Calls)
    {
        /// <summary>The grab to mark failed: any grabbed record of a download covers all of it; the first one is the original.</summary>
        public ArrHistoryRecord Grab => Grabs.MinBy(static g => g.Id)!;

        /// <param name="replaced">Items whose release was already blocklisted (and file deleted) when a later step stopped the repair: guarded by the window like a whole repair's.</param>
        public ArrRepairOutcome Stop(ArrRepairResult result, string reason, IReadOnlyList<int>? replaced = null) => new(result, Instance.Name, reason, Calls, replaced);

        /// <summary>Adds a write's calls and logs it; null when it was accepted (or not made, in a dry run), else why it stopped the repair.</summary>
        public string? Write(ArrResult<bool> write, ILogger logger)
        {
            Calls.AddRange(write.Calls);
            foreach (var call in write.Calls)
            {
                if (call.DryRun)
                {
                    logger.LogInformation("Arr repair of download {NzoId} (dry run): would call {Instance} {Method} {Path}",
                        Request.NzoId, call.Instance, call.Method, call.Path);
                }
                else
                {
                    logger.LogInformation("Arr repair of download {NzoId}: {Instance} {Method} {Path} answered {Status} {Error}",
                        Request.NzoId, call.Instance, call.Method, call.Path, call.Status?.ToString(CultureInfo.InvariantCulture) ?? "nothing", call.Error ?? "");
                }
            }

            return write.Succeeded || write.Outcome is ArrCallOutcome.DryRun ? null : Step(write);
        }

        /// <summary>"(POST /api/v3/history/failed/12) answered 500 (…)": the call that failed and how.</summary>
        public static string Step<T>(ArrResult<T> result) =>
            result.Calls.Count == 0 ? result.Describe() : $"({result.Calls[^1].Method} {result.Calls[^1].Path}) {result.Describe()}";

        public ArrRepairOutcome Done(List<string> done, List<string> notes, IReadOnlyList<int> replaced, ArrSearch search)
        {
            var said = string.Join("; ", notes.Where(static n => n.Length > 0));
            var tail = said.Length == 0 ? "." : $" ({said}).";
            return Request.DryRun
                ? new(ArrRepairResult.DryRun, Instance.Name, $"Dry run: {Describe(Instance)} grabbed the download; it would have {Join(done)}{tail}", Calls, replaced, search)
                : new(ArrRepairResult.Repaired, Instance.Name, $"{Describe(Instance)} {Join(done)}{tail}", Calls, replaced, search);
        }

        /// <summary>
        /// Stops before any change when one of <paramref name="items"/> was replaced inside the
        /// window: its replacement went bad too, and another round would only start a re-grab loop.
        /// </summary>
        public ArrRepairOutcome? RecentlyRepaired(IReadOnlyList<int> items)
        {
            var recent = Request.RecentRepairs?
                .Where(r => string.Equals(r.Instance, Instance.Name, StringComparison.OrdinalIgnoreCase) && items.Contains(r.ItemId))
                .MaxBy(static r => r.RepairedAt);
            return recent is null
                ? null
                : Stop(ArrRepairResult.RecentlyRepaired,
                    $"{Describe(Instance)}: {Item(Instance)} {recent.ItemId} was already replaced on {recent.RepairedAt:u} (it had '{recent.JobName}'), and its replacement '{Grab.SourceTitle}' is broken too. Nothing was changed, so the repairs do not loop: choose Repair now or replace it by hand.");
        }
    }
}

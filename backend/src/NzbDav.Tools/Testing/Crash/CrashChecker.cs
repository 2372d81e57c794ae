using System.Globalization;

namespace NzbDav.Tools.Testing.Crash;

/// <summary>One job as the store holds it: its status (the store's number: 0 Queued … 4 Failed) and how many job folders it has in the library.</summary>
public sealed record CrashStoredJob(string NzoId, string Name, int Status, bool RemovedFromHistory, int Folders, string? FailMessage = null)
{
    public const int Queued = 0;
    public const int Paused = 1;
    public const int Processing = 2;
    public const int Completed = 3;
    public const int Failed = 4;

    public bool InQueue => Status is Queued or Paused or Processing;
}

/// <summary>The store read after a kill: <c>PRAGMA integrity_check</c>'s answer, the jobs, and the values of the settings the editor writes (in <see cref="CrashChecker.SettingKeys"/> order; empty when none is stored).</summary>
public sealed record CrashStoreSnapshot(string Integrity, IReadOnlyList<CrashStoredJob> Jobs, IReadOnlyList<string?> SettingValues);

/// <summary>What one check found wrong, by kind; empty lists when all is well.</summary>
public sealed record CrashFindings(
    IReadOnlyList<string> Lost,
    IReadOnlyList<string> Duplicated,
    IReadOnlyList<string> Resurrected,
    IReadOnlyList<string> Failed,
    IReadOnlyList<string> Settings,
    IReadOnlyList<string> Integrity)
{
    public static CrashFindings None { get; } = new([], [], [], [], [], []);

    public bool Clean => Lost.Count + Duplicated.Count + Resurrected.Count + Failed.Count + Settings.Count + Integrity.Count == 0;

    public IEnumerable<string> All => Lost.Concat(Duplicated).Concat(Resurrected).Concat(Failed).Concat(Settings).Concat(Integrity);

    public CrashFindings Add(CrashFindings other)
    {
        ArgumentNullException.ThrowIfNull(other);
        return new([.. Lost, .. other.Lost], [.. Duplicated, .. other.Duplicated], [.. Resurrected, .. other.Resurrected],
            [.. Failed, .. other.Failed], [.. Settings, .. other.Settings], [.. Integrity, .. other.Integrity]);
    }
}

/// <summary>
/// The rules a crash must not break, checked against what the clients were told
/// (<see cref="CrashExpectations"/>) and what the store holds after the kill. Every accepted NZB is
/// stored exactly once unless its deletion was acknowledged; a deletion acknowledged stays done; no
/// job is stored twice, has two folders, or completed twice; the two settings the editor saves
/// together are equal and either the acknowledged or the in-flight value; the store is intact.
/// </summary>
public static class CrashChecker
{
    /// <summary>Saved together in one request, always to the same value, so a torn save shows as two values.</summary>
    public static readonly IReadOnlyList<string> SettingKeys = ["Health:MaxRepairsPerHour", "Health:MaxConsecutiveMissing"];

    /// <summary>Checks the store after a kill. <paramref name="completions"/> counts each job's "Completed" log lines over every run so far.</summary>
    public static CrashFindings CheckStore(CrashExpectations expected, CrashStoreSnapshot store, IReadOnlyDictionary<string, int> completions)
    {
        ArgumentNullException.ThrowIfNull(expected);
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(completions);
        List<string> lost = [], duplicated = [], resurrected = [], failed = [], settings = [], integrity = [];
        if (!string.Equals(store.Integrity, "ok", StringComparison.Ordinal))
            integrity.Add($"PRAGMA integrity_check answered '{store.Integrity}'");

        foreach (var group in store.Jobs.GroupBy(static j => j.Name, StringComparer.Ordinal).Where(static g => g.Count() > 1))
            duplicated.Add($"{group.Key} is stored {group.Count()} times ({string.Join(", ", group.Select(static j => j.NzoId))})");
        foreach (var group in store.Jobs.GroupBy(static j => j.NzoId, StringComparer.Ordinal).Where(static g => g.Count() > 1))
            duplicated.Add($"{group.Key} is stored {group.Count()} times");
        foreach (var job in store.Jobs.Where(static j => j.Folders > 1))
            duplicated.Add($"{job.NzoId} {job.Name} has {job.Folders} folders in the library (ingested more than once)");
        foreach (var (nzoId, count) in completions.Where(static c => c.Value > 1))
            duplicated.Add($"{nzoId} completed {count} times");
        foreach (var job in store.Jobs.Where(static j => j.Status == CrashStoredJob.Completed && j.Folders == 0))
            lost.Add($"{job.NzoId} {job.Name} is Completed without a folder in the library");
        foreach (var job in store.Jobs.Where(static j => j.Status == CrashStoredJob.Failed))
            failed.Add($"{job.NzoId} {job.Name} failed: {job.FailMessage}");

        var submitted = expected.Submissions.Select(static s => s.Name).ToHashSet(StringComparer.Ordinal);
        foreach (var job in store.Jobs.Where(j => !submitted.Contains(j.Name)))
            resurrected.Add($"{job.NzoId} {job.Name} is stored but was never submitted, or was refused");

        var deletions = expected.Deletions.ToDictionary(static d => d.NzoId, StringComparer.Ordinal);
        var byId = store.Jobs.GroupBy(static j => j.NzoId, StringComparer.Ordinal).ToDictionary(static g => g.Key, static g => g.First(), StringComparer.Ordinal);
        foreach (var submission in expected.Submissions)
        {
            if (submission.NzoId is not { } nzoId)
                continue;
            byId.TryGetValue(nzoId, out var job);
            deletions.TryGetValue(nzoId, out var deletion);
            if (deletion is { Acknowledged: true })
            {
                if (deletion.Kind == CrashDeletion.History)
                {
                    if (job is null)
                        lost.Add($"{nzoId} {submission.Name} was removed from the history, which keeps its files, but is gone");
                    else if (!job.RemovedFromHistory)
                        resurrected.Add($"{nzoId} {submission.Name} is back in the history after its removal was acknowledged");
                }
                else if (job is not null)
                {
                    resurrected.Add($"{nzoId} {submission.Name} is stored again after its {deletion.Kind} delete was acknowledged");
                }

                continue;
            }

            if (job is null)
            {
                if (deletion is null)
                    lost.Add($"{nzoId} {submission.Name} was accepted and is not stored");
                continue;
            }

            if (job.RemovedFromHistory && deletion is null)
                lost.Add($"{nzoId} {submission.Name} left the history though nobody removed it");
        }

        if (store.SettingValues.Count > 0)
        {
            var values = store.SettingValues.Distinct(StringComparer.Ordinal).ToList();
            if (values.Count > 1)
                settings.Add($"the settings saved together differ: {string.Join(", ", SettingKeys.Zip(store.SettingValues, static (k, v) => $"{k}={v ?? "(none)"}"))}");
            var value = store.SettingValues[0];
            var allowed = new[] { expected.SettingAcknowledged, expected.SettingInFlight }.Where(static v => v is not null)
                .Select(static v => v!.Value.ToString(CultureInfo.InvariantCulture)).ToList();
            if (value is null ? expected.SettingAcknowledged is not null : !allowed.Contains(value, StringComparer.Ordinal))
                settings.Add($"{SettingKeys[0]} is '{value ?? "(none)"}'; it must be the acknowledged '{expected.SettingAcknowledged?.ToString(CultureInfo.InvariantCulture) ?? "(none)"}' or the one in flight '{expected.SettingInFlight?.ToString(CultureInfo.InvariantCulture) ?? "(none)"}'");
        }
        else if (expected.SettingAcknowledged is not null)
        {
            settings.Add($"{SettingKeys[0]} is not stored; '{expected.SettingAcknowledged.Value.ToString(CultureInfo.InvariantCulture)}' was acknowledged");
        }

        return new CrashFindings(lost, duplicated, resurrected, failed, settings, integrity);
    }

    /// <summary>
    /// Checks the SABnzbd queue and history (read in that order) after the restart: every job the
    /// store holds outside a history removal shows, once in each list at most, and nothing else shows.
    /// </summary>
    public static CrashFindings CheckListing(CrashStoreSnapshot store, IReadOnlyList<string> queue, IReadOnlyList<string> history)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(queue);
        ArgumentNullException.ThrowIfNull(history);
        List<string> lost = [], duplicated = [], resurrected = [];
        // The queue is read first: a job in both lists finished between the two reads (the restarted
        // server resumes at once); twice in one list is a duplicate.
        foreach (var (list, ids) in new[] { ("queue", queue), ("history", history) })
        {
            foreach (var group in ids.GroupBy(static id => id, StringComparer.Ordinal).Where(static g => g.Count() > 1))
                duplicated.Add($"{group.Key} is listed {group.Count()} times in the SABnzbd {list}");
        }

        var listed = queue.Concat(history).ToHashSet(StringComparer.Ordinal);
        var stored = store.Jobs.ToDictionary(static j => j.NzoId, StringComparer.Ordinal);
        foreach (var job in store.Jobs.Where(static j => !j.RemovedFromHistory))
        {
            if (!listed.Contains(job.NzoId))
                lost.Add($"{job.NzoId} {job.Name} is stored but neither in the SABnzbd queue nor its history after the restart");
        }

        foreach (var nzoId in listed.Where(id => !stored.TryGetValue(id, out var job) || job.RemovedFromHistory))
            resurrected.Add($"{nzoId} is listed after the restart but was not stored (or was removed from the history) at the kill");
        return CrashFindings.None with { Lost = lost, Duplicated = duplicated, Resurrected = resurrected };
    }
}

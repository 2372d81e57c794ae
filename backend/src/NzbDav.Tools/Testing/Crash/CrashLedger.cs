namespace NzbDav.Tools.Testing.Crash;

/// <summary>How a job was deleted: SABnzbd's queue delete, its history delete, or a WebDAV DELETE of the job folder.</summary>
public enum CrashDeletion
{
    Queue,
    History,
    WebDav,
}

/// <summary>
/// What the clients of a crash run were told, and what they asked for without hearing the answer
/// (the server was killed mid-request). A request whose answer never came may or may not have
/// happened; each check finds out from the store and settles it, so from then on it is known.
/// Thread-safe: the adder, the settings editor and the deleter write to it at once.
/// </summary>
public sealed class CrashLedger
{
    private readonly Lock _lock = new();
    private readonly Dictionary<string, SubmissionEntry> _submissions = new(StringComparer.Ordinal);
    private readonly Dictionary<string, DeletionEntry> _deletions = new(StringComparer.Ordinal);
    private int? _settingsAcknowledged;
    private int? _settingsInFlight;

    /// <summary>NZBs whose addfile answered with an nzo_id (or that a check found stored after a lost answer).</summary>
    public int Accepted
    {
        get
        {
            lock (_lock)
                return _submissions.Values.Count(static s => s.NzoId is not null);
        }
    }

    public int SettingsAcknowledgedCount { get; private set; }

    public int DeletionsAcknowledgedCount { get; private set; }

    /// <summary>An addfile is about to be sent.</summary>
    public void Submitting(string name)
    {
        lock (_lock)
            _submissions[name] = new SubmissionEntry(name, null, InFlight: true);
    }

    /// <summary>addfile answered with the job's id.</summary>
    public void SubmissionAccepted(string name, string nzoId)
    {
        lock (_lock)
            _submissions[name] = new SubmissionEntry(name, nzoId, InFlight: false);
    }

    /// <summary>addfile answered without an id: no job.</summary>
    public void SubmissionRefused(string name)
    {
        lock (_lock)
            _submissions.Remove(name);
    }

    public void Deleting(string nzoId, CrashDeletion kind)
    {
        lock (_lock)
            _deletions[nzoId] = new DeletionEntry(nzoId, kind, Acknowledged: false);
    }

    public void DeletionAcknowledged(string nzoId, CrashDeletion kind)
    {
        lock (_lock)
        {
            _deletions[nzoId] = new DeletionEntry(nzoId, kind, Acknowledged: true);
            DeletionsAcknowledgedCount++;
        }
    }

    /// <summary>The server answered that nothing was deleted (the job had moved on).</summary>
    public void DeletionNotDone(string nzoId)
    {
        lock (_lock)
        {
            if (_deletions.TryGetValue(nzoId, out var entry) && !entry.Acknowledged)
                _deletions.Remove(nzoId);
        }
    }

    public void SettingsSending(int value)
    {
        lock (_lock)
            _settingsInFlight = value;
    }

    public void SettingsAcknowledged(int value)
    {
        lock (_lock)
        {
            _settingsAcknowledged = value;
            _settingsInFlight = null;
            SettingsAcknowledgedCount++;
        }
    }

    public void SettingsRefused()
    {
        lock (_lock)
            _settingsInFlight = null;
    }

    /// <summary>Jobs accepted and not deleted (nor asked to be), for the deleter to pick from.</summary>
    public IReadOnlyList<string> Deletable()
    {
        lock (_lock)
            return [.. _submissions.Values.Where(s => s.NzoId is not null && !_deletions.ContainsKey(s.NzoId)).Select(static s => s.NzoId!)];
    }

    /// <summary>What the clients know now, for <see cref="CrashChecker"/>.</summary>
    public CrashExpectations Expectations()
    {
        lock (_lock)
        {
            return new CrashExpectations(
                [.. _submissions.Values.Select(static s => new CrashSubmission(s.Name, s.NzoId))],
                [.. _deletions.Values.Select(static d => new CrashDeletionRequest(d.NzoId, d.Kind, d.Acknowledged))],
                _settingsAcknowledged,
                _settingsInFlight);
        }
    }

    /// <summary>
    /// Settles what was in flight from what the store holds after a kill: a stored NZB whose answer was
    /// lost is accepted from now on (it must never be lost later), one not stored never existed; a
    /// deletion is done or not; the settings are what was stored.
    /// </summary>
    public void Settle(CrashStoreSnapshot snapshot)
    {
        ArgumentNullException.ThrowIfNull(snapshot);
        lock (_lock)
        {
            var byName = snapshot.Jobs.GroupBy(static j => j.Name, StringComparer.Ordinal).ToDictionary(static g => g.Key, static g => g.First(), StringComparer.Ordinal);
            foreach (var submission in _submissions.Values.Where(static s => s.InFlight).ToList())
            {
                if (byName.TryGetValue(submission.Name, out var job))
                    _submissions[submission.Name] = new SubmissionEntry(submission.Name, job.NzoId, InFlight: false);
                else
                    _submissions.Remove(submission.Name);
            }

            var byId = snapshot.Jobs.GroupBy(static j => j.NzoId, StringComparer.Ordinal).ToDictionary(static g => g.Key, static g => g.First(), StringComparer.Ordinal);
            foreach (var deletion in _deletions.Values.Where(static d => !d.Acknowledged).ToList())
            {
                var done = !byId.TryGetValue(deletion.NzoId, out var job) || (deletion.Kind == CrashDeletion.History && job.RemovedFromHistory);
                if (done)
                    _deletions[deletion.NzoId] = deletion with { Acknowledged = true, Kind = job is null ? CrashDeletion.Queue : deletion.Kind };
                else
                    _deletions.Remove(deletion.NzoId);
            }

            if (snapshot.SettingValues.Count > 0 && int.TryParse(snapshot.SettingValues[0], System.Globalization.CultureInfo.InvariantCulture, out var stored))
                _settingsAcknowledged = stored;
            _settingsInFlight = null;
        }
    }

    private sealed record SubmissionEntry(string Name, string? NzoId, bool InFlight);

    private sealed record DeletionEntry(string NzoId, CrashDeletion Kind, bool Acknowledged);
}

/// <summary>One NZB sent: its unique name, and its nzo_id when it was accepted (null while its answer is unknown).</summary>
public sealed record CrashSubmission(string Name, string? NzoId);

/// <summary>A deletion asked for; <paramref name="Acknowledged"/> when the server answered that it was done.</summary>
public sealed record CrashDeletionRequest(string NzoId, CrashDeletion Kind, bool Acknowledged);

/// <summary>What the store must show, per <see cref="CrashLedger"/>.</summary>
public sealed record CrashExpectations(
    IReadOnlyList<CrashSubmission> Submissions,
    IReadOnlyList<CrashDeletionRequest> Deletions,
    int? SettingAcknowledged,
    int? SettingInFlight);

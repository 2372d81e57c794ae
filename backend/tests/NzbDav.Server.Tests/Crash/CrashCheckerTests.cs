using NzbDav.Tools.Testing.Crash;

namespace NzbDav.Server.Tests.Crash;

/// <summary>
/// The rules <c>--test-crash</c> checks after every kill, each shown to catch the breakage it is for
/// (so a run that passes means the store held, not that the checker looked away).
/// </summary>
public sealed class CrashCheckerTests
{
    private static readonly Dictionary<string, int> NoCompletions = [];

    [Fact]
    public void A_store_that_kept_every_accepted_job_once_passes()
    {
        var expected = Expect(["A", "nzo_a"], ["B", "nzo_b"]);
        var store = Store(Job("nzo_a", "A", CrashStoredJob.Completed, folders: 1), Job("nzo_b", "B", CrashStoredJob.Processing));

        Assert.True(CrashChecker.CheckStore(expected, store, new Dictionary<string, int> { ["nzo_a"] = 1 }).Clean);
    }

    [Fact]
    public void An_accepted_job_missing_from_the_store_is_lost()
    {
        var findings = CrashChecker.CheckStore(Expect(["A", "nzo_a"], ["B", "nzo_b"]), Store(Job("nzo_a", "A", CrashStoredJob.Queued)), NoCompletions);

        Assert.Equal("nzo_b B was accepted and is not stored", Assert.Single(findings.Lost));
        Assert.False(findings.Clean);
    }

    [Fact]
    public void A_job_stored_twice_with_two_folders_or_completed_twice_is_duplicated()
    {
        var twice = CrashChecker.CheckStore(Expect(["A", "nzo_a"]), Store(Job("nzo_a", "A", CrashStoredJob.Queued), Job("nzo_x", "A", CrashStoredJob.Queued)), NoCompletions);
        Assert.Contains("A is stored 2 times (nzo_a, nzo_x)", twice.Duplicated);

        var folders = CrashChecker.CheckStore(Expect(["A", "nzo_a"]), Store(Job("nzo_a", "A", CrashStoredJob.Completed, folders: 2)), NoCompletions);
        Assert.Contains("nzo_a A has 2 folders in the library (ingested more than once)", folders.Duplicated);

        var ranTwice = CrashChecker.CheckStore(Expect(["A", "nzo_a"]), Store(Job("nzo_a", "A", CrashStoredJob.Completed, folders: 1)), new Dictionary<string, int> { ["nzo_a"] = 2 });
        Assert.Equal("nzo_a completed 2 times", Assert.Single(ranTwice.Duplicated));
    }

    [Fact]
    public void A_deletion_acknowledged_must_stay_done_and_one_in_flight_may_go_either_way()
    {
        var deleted = new CrashDeletionRequest("nzo_a", CrashDeletion.Queue, Acknowledged: true);
        var back = CrashChecker.CheckStore(Expect([deleted], ["A", "nzo_a"]), Store(Job("nzo_a", "A", CrashStoredJob.Queued)), NoCompletions);
        Assert.Equal("nzo_a A is stored again after its Queue delete was acknowledged", Assert.Single(back.Resurrected));

        var removed = new CrashDeletionRequest("nzo_a", CrashDeletion.History, Acknowledged: true);
        var inHistory = CrashChecker.CheckStore(Expect([removed], ["A", "nzo_a"]), Store(Job("nzo_a", "A", CrashStoredJob.Completed, folders: 1)), NoCompletions);
        Assert.Single(inHistory.Resurrected);
        // Removed from the history, a completed job keeps its files: gone entirely is a loss.
        var gone = CrashChecker.CheckStore(Expect([removed], ["A", "nzo_a"]), Store(), NoCompletions);
        Assert.Single(gone.Lost);

        var inFlight = new CrashDeletionRequest("nzo_a", CrashDeletion.WebDav, Acknowledged: false);
        Assert.True(CrashChecker.CheckStore(Expect([inFlight], ["A", "nzo_a"]), Store(), NoCompletions).Clean);
        Assert.True(CrashChecker.CheckStore(Expect([inFlight], ["A", "nzo_a"]), Store(Job("nzo_a", "A", CrashStoredJob.Completed, folders: 1)), NoCompletions).Clean);
    }

    [Fact]
    public void A_job_nobody_submitted_or_one_that_left_the_history_by_itself_is_reported()
    {
        var stranger = CrashChecker.CheckStore(Expect(), Store(Job("nzo_z", "Z", CrashStoredJob.Queued)), NoCompletions);
        Assert.Single(stranger.Resurrected);

        var left = CrashChecker.CheckStore(Expect(["A", "nzo_a"]), Store(Job("nzo_a", "A", CrashStoredJob.Completed, folders: 1, removed: true)), NoCompletions);
        Assert.Equal("nzo_a A left the history though nobody removed it", Assert.Single(left.Lost));
    }

    [Fact]
    public void Settings_saved_together_must_agree_and_be_the_acknowledged_or_the_in_flight_value()
    {
        var expected = Expect() with { SettingAcknowledged = 7, SettingInFlight = 9 };
        Assert.True(CrashChecker.CheckStore(expected, Store() with { SettingValues = ["7", "7"] }, NoCompletions).Clean);
        Assert.True(CrashChecker.CheckStore(expected, Store() with { SettingValues = ["9", "9"] }, NoCompletions).Clean);

        var torn = CrashChecker.CheckStore(expected, Store() with { SettingValues = ["9", "7"] }, NoCompletions);
        Assert.Contains(torn.Settings, s => s.StartsWith("the settings saved together differ", StringComparison.Ordinal));
        var other = CrashChecker.CheckStore(expected, Store() with { SettingValues = ["5", "5"] }, NoCompletions);
        Assert.Single(other.Settings);
        // Back to the defaults after an acknowledged save: the save was lost.
        var defaulted = CrashChecker.CheckStore(expected, Store(), NoCompletions);
        Assert.Single(defaulted.Settings);
    }

    [Fact]
    public void A_damaged_database_and_a_failed_job_are_reported()
    {
        var findings = CrashChecker.CheckStore(Expect(["A", "nzo_a"]), Store(Job("nzo_a", "A", CrashStoredJob.Failed)) with { Integrity = "*** in database main ***" }, NoCompletions);

        Assert.Equal("PRAGMA integrity_check answered '*** in database main ***'", Assert.Single(findings.Integrity));
        Assert.Single(findings.Failed);
    }

    [Fact]
    public void After_the_restart_each_stored_job_is_listed_once_and_nothing_else()
    {
        var store = Store(Job("nzo_a", "A", CrashStoredJob.Queued), Job("nzo_b", "B", CrashStoredJob.Completed, folders: 1),
            Job("nzo_c", "C", CrashStoredJob.Completed, folders: 1, removed: true));
        Assert.True(CrashChecker.CheckListing(store, ["nzo_a"], ["nzo_b"]).Clean);
        // Finished while the check ran: from the queue into the history is fine.
        Assert.True(CrashChecker.CheckListing(store, [], ["nzo_a", "nzo_b"]).Clean);

        // Finished between the queue's read and the history's: in both, which is no duplicate.
        Assert.True(CrashChecker.CheckListing(store, ["nzo_a"], ["nzo_a", "nzo_b"]).Clean);

        var broken = CrashChecker.CheckListing(store, ["nzo_a", "nzo_a"], ["nzo_c"]);
        Assert.Equal("nzo_a is listed 2 times in the SABnzbd queue", Assert.Single(broken.Duplicated));
        Assert.Equal("nzo_b B is stored but neither in the SABnzbd queue nor its history after the restart", Assert.Single(broken.Lost));
        Assert.Single(broken.Resurrected);
    }

    [Fact]
    public void The_ledger_settles_unanswered_requests_from_the_store_and_then_holds_the_server_to_them()
    {
        var ledger = new CrashLedger();
        ledger.Submitting("A");
        ledger.Submitting("B");
        ledger.SubmissionAccepted("C", "nzo_c");
        ledger.Deleting("nzo_c", CrashDeletion.WebDav);
        ledger.SettingsSending(5);
        // The kill came before any answer: A was stored, B was not, C's deletion happened, the save did.
        var store = Store(Job("nzo_a", "A", CrashStoredJob.Queued)) with { SettingValues = ["5", "5"] };
        Assert.True(CrashChecker.CheckStore(ledger.Expectations(), store, NoCompletions).Clean);
        ledger.Settle(store);

        var settled = ledger.Expectations();
        Assert.Equal(["A", "C"], settled.Submissions.Select(static s => s.Name).Order());
        Assert.Equal("nzo_a", settled.Submissions.Single(static s => s.Name == "A").NzoId);
        Assert.True(Assert.Single(settled.Deletions).Acknowledged);
        Assert.Equal(5, settled.SettingAcknowledged);
        // From now on A is accepted: losing it at a later kill is a loss.
        Assert.Single(CrashChecker.CheckStore(settled, Store() with { SettingValues = ["5", "5"] }, NoCompletions).Lost);
    }

    private static CrashExpectations Expect(params string[][] accepted) => Expect([], accepted);

    private static CrashExpectations Expect(CrashDeletionRequest[] deletions, params string[][] accepted) =>
        new([.. accepted.Select(static a => new CrashSubmission(a[0], a[1]))], deletions, null, null);

    private static CrashStoreSnapshot Store(params CrashStoredJob[] jobs) => new("ok", jobs, []);

    private static CrashStoredJob Job(string nzoId, string name, int status, int folders = 0, bool removed = false) =>
        new(nzoId, name, status, removed, folders, status == CrashStoredJob.Failed ? "why" : null);
}

using System.Globalization;

namespace NzbDav.Tools.Testing.Crash;

/// <summary>
/// One cycle: when the kill came (during the server's <c>start</c> or the clients' <c>work</c>), how
/// long after the spawn or the start of work, how long the start took (-1: killed before /health
/// answered), and the store at the kill.
/// </summary>
public sealed record CrashCycle(int Index, string KilledDuring, int KillAfterMs, double StartMs, int AcceptedSoFar, int InQueue, int MidIngestion, int Problems);

/// <summary>What a <c>--test-crash</c> run found.</summary>
public sealed record CrashReport
{
    public required CrashOptions Options { get; init; }

    public required IReadOnlyList<CrashCycle> Cycles { get; init; }

    public TimeSpan Elapsed { get; init; }

    public int Submitted { get; init; }

    public int Accepted { get; init; }

    public int Completed { get; init; }

    public int DeletionsAcknowledged { get; init; }

    public int SettingsSaved { get; init; }

    public required IReadOnlyList<string> StartFailures { get; init; }

    public required IReadOnlyList<string> MountFailures { get; init; }

    public int OrphanedRclones { get; init; }

    public required CrashFindings Findings { get; init; }

    public int PendingAtEnd { get; init; }

    public string? Folder { get; init; }

    public bool Passed => StartFailures.Count == 0 && MountFailures.Count == 0 && Findings.Clean;

    public static void WriteSummary(TextWriter output, CrashReport report)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(report);
        var f = report.Findings;
        var text = CultureInfo.InvariantCulture;
        output.WriteLine("╔══ CRASH SAFETY: kill -9 of the server at random moments ══");
        output.WriteLine(string.Create(text, $"║ cycles             {report.Cycles.Count} (killed during start {report.Cycles.Count(static c => c.KilledDuring == "start")}, during work {report.Cycles.Count(static c => c.KilledDuring == "work")}), seed {report.Options.Seed}, mount {(report.Options.Mount ? "on" : "off")}, {report.Elapsed.TotalSeconds:F0} s"));
        output.WriteLine(string.Create(text, $"║ NZBs               {report.Submitted} sent, {report.Accepted} accepted, {report.Completed} completed in the end"));
        output.WriteLine(string.Create(text, $"║ interrupted        {report.Cycles.Sum(static c => c.MidIngestion)} jobs mid-ingestion and {report.Cycles.Sum(static c => c.InQueue)} queue entries at the kills (summed over cycles)"));
        output.WriteLine(string.Create(text, $"║ deletions          {report.DeletionsAcknowledged} acknowledged; settings saves {report.SettingsSaved} acknowledged"));
        var started = report.Cycles.Where(static c => c.StartMs >= 0).Select(static c => c.StartMs).ToList();
        if (started.Count > 0)
            output.WriteLine(string.Create(text, $"║ start to /health   median {Median(started):F0} ms, max {started.Max():F0} ms"));
        if (report.Options.Mount)
            output.WriteLine(string.Create(text, $"║ orphaned rclone    {report.OrphanedRclones} left by kills"));
        output.WriteLine(string.Create(text, $"║ lost               {f.Lost.Count}"));
        output.WriteLine(string.Create(text, $"║ duplicated         {f.Duplicated.Count}"));
        output.WriteLine(string.Create(text, $"║ deleted came back  {f.Resurrected.Count}"));
        output.WriteLine(string.Create(text, $"║ failed/unfinished  {f.Failed.Count}"));
        output.WriteLine(string.Create(text, $"║ settings torn      {f.Settings.Count}"));
        output.WriteLine(string.Create(text, $"║ integrity failures {f.Integrity.Count}"));
        output.WriteLine(string.Create(text, $"║ start failures     {report.StartFailures.Count}"));
        output.WriteLine(string.Create(text, $"║ mount failures     {report.MountFailures.Count}"));
        foreach (var problem in f.All.Concat(report.StartFailures).Concat(report.MountFailures).Take(30))
            output.WriteLine("║   " + problem);
        if (report.Folder is not null)
            output.WriteLine("║ kept               " + report.Folder);
        output.WriteLine("╚══ " + (report.Passed ? "PASS" : "FAIL"));
    }

    public static string Json(CrashReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        var f = report.Findings;
        return JsonLine.Object(json =>
        {
            json.WriteString("command", "test-crash");
            json.WriteBoolean("passed", report.Passed);
            json.WriteNumber("cycles", report.Cycles.Count);
            json.WriteNumber("seed", report.Options.Seed);
            json.WriteBoolean("mount", report.Options.Mount);
            json.WriteNumber("killedDuringStart", report.Cycles.Count(static c => c.KilledDuring == "start"));
            json.WriteNumber("killedDuringWork", report.Cycles.Count(static c => c.KilledDuring == "work"));
            json.WriteNumber("submitted", report.Submitted);
            json.WriteNumber("accepted", report.Accepted);
            json.WriteNumber("completed", report.Completed);
            json.WriteNumber("midIngestionAtKills", report.Cycles.Sum(static c => c.MidIngestion));
            json.WriteNumber("deletionsAcknowledged", report.DeletionsAcknowledged);
            json.WriteNumber("settingsSaved", report.SettingsSaved);
            json.WriteNumber("orphanedRclones", report.OrphanedRclones);
            json.WriteNumber("lost", f.Lost.Count);
            json.WriteNumber("duplicated", f.Duplicated.Count);
            json.WriteNumber("resurrected", f.Resurrected.Count);
            json.WriteNumber("failed", f.Failed.Count);
            json.WriteNumber("settingsTorn", f.Settings.Count);
            json.WriteNumber("integrityFailures", f.Integrity.Count);
            json.WriteNumber("startFailures", report.StartFailures.Count);
            json.WriteNumber("mountFailures", report.MountFailures.Count);
            var started = report.Cycles.Where(static c => c.StartMs >= 0).Select(static c => c.StartMs).ToList();
            if (started.Count > 0)
                json.WriteNumber("maxStartMs", Math.Round(started.Max()));
            json.WriteNumber("seconds", Math.Round(report.Elapsed.TotalSeconds, 1));
            json.WriteStartArray("problems");
            foreach (var problem in f.All.Concat(report.StartFailures).Concat(report.MountFailures))
                json.WriteStringValue(problem);
            json.WriteEndArray();
        });
    }

    private static double Median(List<double> values)
    {
        var sorted = values.Order().ToList();
        return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[(sorted.Count / 2) - 1] + sorted[sorted.Count / 2]) / 2;
    }
}

using NzbDav.Tools.Testing.DavBenchmark;

namespace NzbDav.Tools.Testing.Scale;

/// <summary>What one <c>--test-scale</c> run measured: one <see cref="ScaleSizeReport"/> per library size, smallest first.</summary>
public sealed record ScaleReport(ScaleOptions Options, IReadOnlyList<ScaleSizeReport> Sizes)
{
    /// <summary>The calls timed per size, in report order, with what each one is.</summary>
    public static IReadOnlyList<(string Key, string Label)> Calls { get; } =
    [
        (ScaleCalls.PropfindContent, "PROPFIND /content/tv/ (biggest folder)"),
        (ScaleCalls.PropfindCompleted, "PROPFIND /completed/tv/"),
        (ScaleCalls.PropfindJob, "PROPFIND of one job folder"),
        (ScaleCalls.PropfindIds, "PROPFIND /.ids/ (every file)"),
        (ScaleCalls.SabHistory, "SAB history (start=0&limit=60&category=tv)"),
        (ScaleCalls.SabQueue, "SAB queue (start=0&limit=0)"),
        (ScaleCalls.UiHistory, "UI History page (page 1 of 25)"),
        (ScaleCalls.UiFiles, "UI Files page (/content/tv)"),
    ];
}

/// <summary>The keys of the timed calls (also the JSON names).</summary>
public static class ScaleCalls
{
    public const string PropfindContent = "propfindContent";
    public const string PropfindCompleted = "propfindCompleted";
    public const string PropfindJob = "propfindJob";
    public const string PropfindIds = "propfindIds";
    public const string SabHistory = "sabHistory";
    public const string SabQueue = "sabQueue";
    public const string UiHistory = "uiHistory";
    public const string UiFiles = "uiFiles";
}

/// <summary>One library size: what was generated and what the server did with it.</summary>
public sealed record ScaleSizeReport
{
    public required int Jobs { get; init; }

    public required int Completed { get; init; }

    public required int Failed { get; init; }

    public required int Queued { get; init; }

    /// <summary>Library files (DavItems that are files).</summary>
    public required long Files { get; init; }

    /// <summary>Children of the biggest folder, <c>/content/tv/</c>.</summary>
    public required int BigFolderChildren { get; init; }

    /// <summary>History entries (completed and failed), and those of the big category.</summary>
    public required int History { get; init; }

    public required int BigCategoryHistory { get; init; }

    public required TimeSpan GenerateTime { get; init; }

    /// <summary>The database file with its -wal and -shm, right after generation and after the measurements.</summary>
    public required long DatabaseBytesGenerated { get; init; }

    public required long DatabaseBytes { get; init; }

    /// <summary>From starting the server process to the first 200 from <c>/health</c>.</summary>
    public required TimeSpan Start { get; init; }

    /// <summary>Each call's first (untimed in the summary) duration: a cold cache and fresh JIT.</summary>
    public required IReadOnlyDictionary<string, double> FirstMs { get; init; }

    /// <summary>Each call's timed samples.</summary>
    public required IReadOnlyDictionary<string, LatencySummary> Latency { get; init; }

    /// <summary>The server's RSS after the measurements, and its peak over its life.</summary>
    public required long RssBytes { get; init; }

    public required long PeakRssBytes { get; init; }
}

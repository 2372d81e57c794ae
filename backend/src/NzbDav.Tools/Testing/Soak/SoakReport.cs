using NzbDav.Tools.Testing.DavBenchmark;

namespace NzbDav.Tools.Testing.Soak;

/// <summary>One provider's side of the run as its mock counted it.</summary>
public sealed record SoakProviderReport(
    int MaxConnections, int PeakConnections, long Sessions, long BytesSent, long BodyCommands, long RefusedWhileDown, long DroppedByDown)
{
    public bool Passed => PeakConnections <= MaxConnections;
}

/// <summary>
/// One of the longest block waits outside the outage: the client, the file and offset of the block,
/// when it began (seconds into the load), how long it waited, and the server's slow-read warnings
/// logged meanwhile (which article, on which providers, how many attempts and races).
/// </summary>
public sealed record SoakWorstWait(string Client, string Path, long Offset, double AtSeconds, double WaitMs, IReadOnlyList<string> Server);

/// <summary>What a <c>--test-soak</c> run measured, and which targets it met.</summary>
public sealed record SoakReport
{
    public required SoakOptions Options { get; init; }

    /// <summary>From the start of the load until every client had stopped.</summary>
    public required TimeSpan Elapsed { get; init; }

    public required VerificationResult Verification { get; init; }

    /// <summary>GETs sent by the clients.</summary>
    public required long Reads { get; init; }

    /// <summary>Every request that failed (a wrong status, a short body, a reset), during the outage or not.</summary>
    public required IReadOnlyList<SoakFailure> Failures { get; init; }

    public required int FailuresDuringOutage { get; init; }

    /// <summary>Block waits that did not overlap the outage.</summary>
    public required LatencySummary WaitsOutside { get; init; }

    /// <summary>Block waits that overlapped the outage.</summary>
    public required LatencySummary WaitsInside { get; init; }

    /// <summary>The longest waits outside the outage (of at least a second), worst first.</summary>
    public IReadOnlyList<SoakWorstWait> WorstWaits { get; init; } = [];

    public required LatencySummary PropfindsOutside { get; init; }

    public required LatencySummary PropfindsInside { get; init; }

    public required SoakProviderReport Primary { get; init; }

    public required SoakProviderReport Backup { get; init; }

    /// <summary>The block account's side, when the soak had one.</summary>
    public SoakProviderReport? Block { get; init; }

    public required SoakIngestionResult Jobs { get; init; }

    /// <summary>This process (the clients and both mocks) at the end of the run.</summary>
    public required MemoryUsage Memory { get; init; }

    /// <summary>The server's peak resident set size (its child process's VmHWM).</summary>
    public required long HostPeakRssBytes { get; init; }

    public required int Dashboards { get; init; }

    public required long DashboardFrames { get; init; }

    /// <summary>Why a dashboard's live feed ended before the run did; null when none did.</summary>
    public string? DashboardError { get; init; }

    public int FailedReads => Failures.Count;

    public bool CorruptionPassed => Verification.MismatchedReads == 0 && Verification.MismatchedBytes == 0 && Verification.VerifiedBytes > 0;

    /// <summary>The backup has every article, so any failed request is a failure, in the outage or not.</summary>
    public bool FailedReadsPassed => Failures.Count == 0;

    public bool CapsPassed => Primary.Passed && Backup.Passed && Block?.Passed != false;

    /// <summary>The backup has every article: a block account is never needed, so it sends nothing.</summary>
    public bool BlockPassed => Block is null || Block.BytesSent == 0;

    public bool WaitPassed => WaitsOutside.Count > 0 && WaitsOutside.MaxMs <= Options.MaxWaitMs;

    public bool RssPassed => HostPeakRssBytes > 0 && HostPeakRssBytes <= Options.MaxRssMB * 1_000_000L;

    public bool JobsPassed => Jobs.Passed;

    public bool LiveChannelPassed => Dashboards == 0 || (DashboardError is null && DashboardFrames > 0);

    public bool Passed => CorruptionPassed && FailedReadsPassed && CapsPassed && BlockPassed && WaitPassed && RssPassed && JobsPassed && LiveChannelPassed;
}

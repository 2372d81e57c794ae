namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>One step of the streams-held search: N streams played together for the step's seconds.</summary>
public sealed record StreamsHeldStep
{
    public required int Streams { get; init; }

    /// <summary>The slowest stream's bytes received over its time, as a fraction of the rate asked.</summary>
    public required double SlowestFraction { get; init; }

    public required double MedianFraction { get; init; }

    /// <summary>The longest wait for a 256 KiB block after a stream's first.</summary>
    public required double WorstWaitMs { get; init; }

    /// <summary>Every block after a stream's first.</summary>
    public required LatencySummary Reads { get; init; }

    /// <summary>The slowest stream's first 256 KiB, from its request (all streams start at once).</summary>
    public required double SlowestStartMs { get; init; }

    public required long ServedBytes { get; init; }

    /// <summary>What the mock provider sent during the step (yEnc-encoded article bodies, as a provider's traffic counter sees them).</summary>
    public required long FetchedBytes { get; init; }

    public double FetchedToServed => ServedBytes > 0 ? (double)FetchedBytes / ServedBytes : 0;

    /// <summary>The server process's peak resident set since it started (VmHWM), read after the step; the largest node's with several.</summary>
    public required long ServerPeakRssBytes { get; init; }

    /// <summary>
    /// On PostgreSQL: the store's transactions per second (all nodes) during the step, to compare
    /// with <see cref="StreamsHeldReport.IdleStoreTransactionsPerSecond"/>: what playing (stream
    /// starts, lease steps) adds to what the nodes ask anyway. Null on SQLite.
    /// </summary>
    public double? StoreTransactionsPerSecond { get; init; }

    /// <summary>Streams that failed (the server dropped or refused them), with the reason.</summary>
    public required IReadOnlyList<string> Failures { get; init; }

    public required bool Held { get; init; }
}

/// <summary>What <c>--test-webdav --streams-held=MBps</c> found.</summary>
public sealed record StreamsHeldReport
{
    public required int RateMBps { get; init; }

    public required int Seconds { get; init; }

    public required long FileSize { get; init; }

    public int Nodes { get; init; } = 1;

    /// <summary><c>sqlite</c> or <c>postgres</c>.</summary>
    public string Store { get; init; } = "sqlite";

    /// <summary>On PostgreSQL: the store's transactions per second (all nodes) with nothing playing.</summary>
    public double? IdleStoreTransactionsPerSecond { get; init; }

    public required MockServerReport Mock { get; init; }

    public required IReadOnlyList<StreamsHeldStep> Steps { get; init; }

    public required VerificationResult Verification { get; init; }

    /// <summary>The most streams of a step that held, every step before it having held too; 0 when the first did not.</summary>
    public int Held => Steps.TakeWhile(s => s.Held).Select(s => s.Streams).DefaultIfEmpty(0).Max();

    public bool Passed => Verification.MismatchedReads == 0 && Steps.Count > 0;
}

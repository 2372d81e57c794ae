namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>What the web host phase measured, before the FullNzbTester runs.</summary>
internal sealed record WebPhase(
    TimeSpan Ingestion, GetMeasurement ColdGet, GetMeasurement WarmGet, IReadOnlyList<RangedGet> Ranged, ConcurrentLoadResult Concurrent, ProbeResult? Probe);

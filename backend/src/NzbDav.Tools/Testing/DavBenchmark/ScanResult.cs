namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>Request times of a library scan, each from sending to the last byte of the answer.</summary>
internal sealed record ScanResult(LatencySummary Propfinds, LatencySummary HeaderReads, long HeaderBytes, TimeSpan Elapsed);

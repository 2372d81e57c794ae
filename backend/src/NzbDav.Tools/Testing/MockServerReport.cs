namespace NzbDav.Tools.Testing;

/// <summary>The mock server's settings and what it saw.</summary>
public sealed record MockServerReport(
    int SizeMiB, int LatencyMs, int JitterMs, int Connections, double StallFraction, int SegmentSizeKiB,
    int PeakConnections, long RejectedConnections, long BytesSent);

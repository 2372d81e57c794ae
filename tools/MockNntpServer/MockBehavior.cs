namespace NzbDav.MockNntp;

/// <summary>
/// How the server behaves; tests may change any property while it runs (the next command read or
/// answered sees the new value).
/// </summary>
public sealed class MockBehavior
{
    /// <summary>Simulated round trip: an answer starts no earlier than this after its command arrived.</summary>
    public TimeSpan Latency { get; set; }

    /// <summary>Each command's latency is drawn uniformly from <see cref="Latency"/> ± this.</summary>
    public TimeSpan Jitter { get; set; }

    /// <summary>Per-connection send cap in bytes per second; 0 is unlimited.</summary>
    public long BandwidthBytesPerSecond { get; set; }

    /// <summary>Fraction of article commands after which the connection hangs for <see cref="StallDuration"/> (or until the client closes its side), then closes.</summary>
    public double StallFraction { get; set; }

    /// <summary>How long a stalled connection hangs before it is closed.</summary>
    public TimeSpan StallDuration { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Fraction of articles answered with 430 (chosen deterministically from the seed).</summary>
    public double MissingFraction { get; set; }

    /// <summary>Fraction of BODY/ARTICLE answers cut off midway by closing the connection.</summary>
    public double DropFraction { get; set; }
}

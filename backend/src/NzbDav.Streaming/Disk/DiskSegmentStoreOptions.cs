namespace NzbDav.Streaming.Disk;

/// <summary>Where and how much (<c>Cache:Path</c>, <c>Cache:MaxBytes</c>); no path, no disk cache.</summary>
public sealed class DiskSegmentStoreOptions
{
    public const string SectionName = "Cache";

    /// <summary>The smallest size a disk cache may have.</summary>
    public const long MinBytes = 1024 * 1024;

    /// <summary>The folder the segments live in; empty turns the disk cache off.</summary>
    public string Path { get; set; } = "";

    /// <summary>The most segment bytes kept on disk. Default 10 GiB.</summary>
    public long MaxBytes { get; set; } = 10L * 1024 * 1024 * 1024;

    /// <summary>The share of <see cref="MaxBytes"/> probe segments may keep against playback. Default 0.5.</summary>
    public double ProbeShare { get; set; } = 0.5;

    /// <summary>Writes waiting for the disk before new ones are dropped. Default 256.</summary>
    public int MaxQueuedWrites { get; set; } = 256;

    /// <summary>Bytes of segments waiting for the disk (held in memory beside the streaming budget) before new ones are dropped. Default 32 MiB.</summary>
    public long MaxQueuedBytes { get; set; } = 32L * 1024 * 1024;

    /// <summary>The largest segment written (a decoded article is well under this). Default 16 MiB.</summary>
    public int MaxSegmentBytes { get; set; } = 16 * 1024 * 1024;

    /// <summary>
    /// Played segments written per second at most (probes' are always written); beyond it they are
    /// skipped (counted). 0: no limit. Default 16 MiB/s (about 140 Mbit/s of players: a dozen 1080p
    /// streams or two 4K remuxes); every MB written costs about a third of a millisecond of CPU.
    /// </summary>
    public long PlaybackWriteBytesPerSecond { get; set; } = 16L * 1024 * 1024;

    /// <summary>After a failed write, seconds before one is tried again. Default 30.</summary>
    public int RetrySeconds { get; set; } = 30;

    /// <summary>True when a path is set.</summary>
    public bool Enabled => !string.IsNullOrWhiteSpace(Path);

    /// <summary>The first thing wrong with these settings, naming the setting, or null.</summary>
    public string? Problem()
    {
        if (Enabled && !System.IO.Path.IsPathFullyQualified(Path))
            return $"Cache:Path must be an absolute folder path; '{Path}' is not.";
        if (MaxBytes < MinBytes)
            return $"Cache:MaxBytes must be at least 1 MiB; {MaxBytes} is not.";
        if (ProbeShare is < 0 or > 1)
            return $"Cache:ProbeShare must be between 0 and 1; {ProbeShare} is not.";
        if (MaxQueuedWrites < 1)
            return $"Cache:MaxQueuedWrites must be at least 1; {MaxQueuedWrites} is not.";
        if (MaxQueuedBytes < 1)
            return $"Cache:MaxQueuedBytes must be at least 1; {MaxQueuedBytes} is not.";
        if (PlaybackWriteBytesPerSecond < 0)
            return $"Cache:PlaybackWriteBytesPerSecond cannot be negative; {PlaybackWriteBytesPerSecond} is not.";
        if (RetrySeconds < 1)
            return $"Cache:RetrySeconds must be at least 1; {RetrySeconds} is not.";
        return null;
    }

    public void Validate()
    {
        if (Problem() is { } problem)
            throw new ArgumentException(problem);
    }
}

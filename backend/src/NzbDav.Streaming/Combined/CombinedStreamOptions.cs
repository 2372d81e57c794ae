namespace NzbDav.Streaming.Combined;

/// <summary>How many inner streams a <see cref="CombinedStream"/> keeps open.</summary>
public sealed record CombinedStreamOptions
{
    /// <summary>The defaults: two open inner streams.</summary>
    public static CombinedStreamOptions Default { get; } = new();

    /// <summary>
    /// Inner streams kept open at once (least recently used is disposed first). Default 2: the
    /// part being read plus the previous one, so a small seek back across a boundary (players do
    /// this at volume edges) reuses an open stream instead of re-fetching its first segment.
    /// Each open inner stream may hold connections and read-ahead, so keep this small.
    /// </summary>
    public int MaxOpenStreams { get; init; } = 2;

    /// <summary>Throws <see cref="ArgumentException"/> naming the offending setting.</summary>
    public void Validate()
    {
        if (MaxOpenStreams < 1)
        {
            throw new ArgumentException($"{nameof(MaxOpenStreams)} is {MaxOpenStreams}; it must be at least 1 (the part being read is always open).");
        }
    }
}

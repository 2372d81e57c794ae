namespace NzbDav.Streaming;

/// <summary>
/// Segments of a file confirmed missing on every provider that the reader gets as zeros of the
/// right length instead of an error (a Degraded file: a video container resyncs at the next
/// keyframe). Nothing is fetched for them. <paramref name="onFirstFill"/> runs once per stream, the
/// first time a hole is read, so the owner can log once per file. A hole that a repair rebuilt is
/// read from <paramref name="patches"/> instead, when its patch is there and intact.
/// </summary>
public sealed class SegmentHoles(IReadOnlySet<string> messageIds, Action<string>? onFirstFill = null, ISegmentPatches? patches = null)
{
    internal ISegmentPatches? Patches { get; } = patches;

    public IReadOnlySet<string> MessageIds { get; } = messageIds ?? throw new ArgumentNullException(nameof(messageIds));

    internal Action<string>? OnFirstFill { get; } = onFirstFill;

    /// <summary>Per segment index: true for a hole. Null when none of the ids is a hole.</summary>
    internal bool[]? Map(IReadOnlyList<string> ids)
    {
        if (MessageIds.Count == 0)
            return null;
        bool[]? map = null;
        for (var i = 0; i < ids.Count; i++)
        {
            if (MessageIds.Contains(ids[i]))
                (map ??= new bool[ids.Count])[i] = true;
        }
        return map;
    }
}

namespace NzbDav.Streaming;

/// <summary>
/// Rebuilt bytes of segments every provider lost (a PAR2 repair's patches), kept by their owner
/// and checked by it on every read.
/// </summary>
public interface ISegmentPatches
{
    /// <summary>
    /// Fills <paramref name="destination"/> (the segment's exact decoded length) with the patch of
    /// <paramref name="messageId"/>; false when there is none or it failed its check (the reader then
    /// gets zeros there, as for any hole).
    /// </summary>
    bool TryRead(string messageId, Span<byte> destination);
}

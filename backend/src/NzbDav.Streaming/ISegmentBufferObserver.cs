namespace NzbDav.Streaming;

/// <summary>
/// Told by a <see cref="SegmentBuffer"/> what its decode is doing. Called on NNTP receive loops, so it
/// publishes and signals only: it must not block, lock or judge the bytes (readers do that).
/// </summary>
internal interface ISegmentBufferObserver
{
    /// <summary>The header is known and the buffer is sized.</summary>
    void OnBegin(SegmentBuffer buffer);

    /// <summary>More decoded bytes are readable.</summary>
    void OnData(SegmentBuffer buffer);

    /// <summary>Every byte arrived and the part's size and CRC were verified.</summary>
    void OnCompleted(SegmentBuffer buffer);

    /// <summary>The fetch writing into the buffer failed; it will receive nothing more.</summary>
    void OnFailed(SegmentBuffer buffer);
}

using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Nntp;

/// <summary>Progress of one BODY decode across reads.</summary>
internal struct NntpBodyState
{
    /// <summary>Set once the decoder reported the =ybegin/=ypart lines.</summary>
    public YencHeader? Header;

    /// <summary>Decoded bytes handed to the target.</summary>
    public long Written;

    /// <summary>The decode or target failure; the rest of the answer is then skipped to its terminator.</summary>
    public Exception? Failure;

    // The last three raw bytes the decoder consumed, so a skip after a failure can tell whether it
    // starts at a line start (the terminator is only a terminator there).
    private uint _tail;
    private int _tailLength;

    public void Remember(ReadOnlySpan<byte> consumed)
    {
        foreach (var b in consumed.Length > 3 ? consumed[^3..] : consumed)
        {
            _tail = (_tail << 8) | b;
        }
        _tailLength = Math.Min(3, _tailLength + consumed.Length);
    }

    public readonly NntpTerminatorScanner ScannerAfterTail()
    {
        Span<byte> tail = stackalloc byte[3];
        for (var i = 0; i < _tailLength; i++)
        {
            tail[_tailLength - 1 - i] = (byte)(_tail >> (8 * i));
        }
        return NntpTerminatorScanner.After(tail[.._tailLength]);
    }
}

namespace NzbDav.Usenet.Yenc;

/// <summary>Entry and exit rules shared by the vector kernels.</summary>
internal static unsafe class YencVectorEntry
{
    /// <summary>
    /// The kernels read a byte's context from the byte before it: after '=' it is escaped, after LF
    /// it starts a line. Inside their loop that is exact (they refuse blocks with an escaped '=',
    /// CR or LF). On entry it is exact only when the byte before <paramref name="p"/> is in this
    /// source, is '=' exactly when an escape is pending, and is LF when a line is starting; otherwise
    /// (a '=' escaped by '=', state carried over from the previous read) the scalar path goes first.
    /// </summary>
    /// <remarks>
    /// An LF before a byte the scalar path already took as a line's first data byte is harmless:
    /// that byte is neither '.' nor '=', so the kernels' line-start checks pass it.
    /// </remarks>
    public static bool PreviousByteMatchesState(byte* source, int p, bool lineStart, bool escape)
    {
        if (p <= 0)
        {
            return false;
        }
        var previous = source[p - 1];
        return (previous == (byte)'=') == escape && (!lineStart || previous == (byte)'\n');
    }
}

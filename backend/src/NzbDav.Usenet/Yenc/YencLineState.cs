namespace NzbDav.Usenet.Yenc;

/// <summary>
/// Where inside the current line a <see cref="YencDecoder"/> is. The line-start states exist
/// because the first bytes of a line decide what it is (terminator, dot-stuffed, keyword) and a
/// read may end after any one of them.
/// </summary>
internal enum YencLineState
{
    /// <summary>Nothing of the current line consumed yet.</summary>
    LineStart,

    /// <summary>The line began with '.'; the next byte says stuffing, terminator or data.</summary>
    AfterDot,

    /// <summary>The line is ".\r" so far; a '\n' makes it the terminator.</summary>
    AfterDotCr,

    /// <summary>The line began with '='; a 'y' makes it a keyword line, anything else an escape.</summary>
    AfterLineStartEquals,

    /// <summary>Inside a data line (Data phase only).</summary>
    InData,

    /// <summary>Collecting a "=y..." line into the keyword buffer.</summary>
    InKeyword,

    /// <summary>Skipping a line that carries nothing we need.</summary>
    SkipLine,
}

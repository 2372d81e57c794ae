namespace NzbDav.Usenet.Nzb;

/// <summary>
/// The NZB is not well-formed XML or breaks the NZB format. <see cref="LineNumber"/> and
/// <see cref="LinePosition"/> locate the problem (both 0 when the position is unknown).
/// </summary>
public sealed class NzbFormatException : FormatException
{
    /// <summary>Creates the exception; the message ends with the line and position.</summary>
    public NzbFormatException(string detail, int lineNumber, int linePosition, Exception? innerException = null)
        : base($"{detail} (line {lineNumber}, position {linePosition})", innerException)
    {
        Detail = detail;
        LineNumber = lineNumber;
        LinePosition = linePosition;
    }

    /// <summary>What is wrong, without the location.</summary>
    public string Detail { get; }

    /// <summary>1-based line of the offending XML, or 0 when unknown.</summary>
    public int LineNumber { get; }

    /// <summary>1-based position within <see cref="LineNumber"/>, or 0 when unknown.</summary>
    public int LinePosition { get; }
}

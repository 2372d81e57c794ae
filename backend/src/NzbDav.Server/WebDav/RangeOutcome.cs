namespace NzbDav.Server.WebDav;

/// <summary>How a GET answers after looking at Range and If-Range.</summary>
public enum RangeOutcome
{
    /// <summary>200 with the whole representation (no Range, an ignored Range, or a failed If-Range).</summary>
    Full,

    /// <summary>206 with one range.</summary>
    Partial,

    /// <summary>416 with <c>Content-Range: bytes */length</c>.</summary>
    Unsatisfiable,
}

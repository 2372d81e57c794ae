namespace NzbDav.Usenet.Nzb;

/// <summary>A <c>&lt;file&gt;</c> the parser left out of the document, and why.</summary>
/// <param name="Subject">Its <c>subject</c> attribute (empty when absent).</param>
/// <param name="Reason">What is wrong with it, e.g. "it has no segments".</param>
/// <param name="LineNumber">1-based line of the <c>&lt;file&gt;</c> element, or 0 when unknown.</param>
/// <param name="LinePosition">1-based position within that line, or 0 when unknown.</param>
public sealed record NzbDroppedFile(string Subject, string Reason, int LineNumber, int LinePosition);

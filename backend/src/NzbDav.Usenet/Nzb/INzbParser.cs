namespace NzbDav.Usenet.Nzb;

/// <summary>Reads NZB 1.1 documents. Implementations are stateless and safe to share.</summary>
public interface INzbParser
{
    /// <summary>Parses an NZB from <paramref name="stream"/> (left open) while reading it asynchronously.</summary>
    /// <exception cref="NzbFormatException">The XML is malformed or the NZB breaks the format.</exception>
    Task<NzbDocument> ParseAsync(Stream stream, CancellationToken cancellationToken);

    /// <summary>Parses an NZB from <paramref name="stream"/> (left open).</summary>
    /// <exception cref="NzbFormatException">The XML is malformed or the NZB breaks the format.</exception>
    NzbDocument Parse(Stream stream, CancellationToken cancellationToken = default);
}

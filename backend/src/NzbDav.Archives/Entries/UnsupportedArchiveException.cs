namespace NzbDav.Archives.Entries;

/// <summary>
/// The archive is well formed but cannot be streamed: compressed or solid entries, encrypted
/// headers, unknown ciphers. The message names the entry and the reason.
/// </summary>
public sealed class UnsupportedArchiveException(string message) : ArchiveFormatException(message);

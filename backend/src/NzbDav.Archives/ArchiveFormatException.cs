namespace NzbDav.Archives;

/// <summary>An archive or release file is malformed, truncated, or uses a feature that cannot be streamed.</summary>
public class ArchiveFormatException(string message, Exception? inner = null) : Exception(message, inner);

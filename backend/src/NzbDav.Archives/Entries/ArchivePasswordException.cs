namespace NzbDav.Archives.Entries;

/// <summary>The archive is encrypted and no password, or a wrong one, was given.</summary>
public sealed class ArchivePasswordException(string message) : ArchiveFormatException(message);

namespace NzbDav.Data.Layout;

/// <summary>A stored layout blob is truncated, of an unknown version, or inconsistent.</summary>
public sealed class LayoutFormatException(string message) : FormatException(message);

namespace NzbDav.Server.WebDav;

/// <summary>A file cannot be streamed for a reason the user can fix (no provider configured): answered 503 with the reason.</summary>
public sealed class DavUnavailableException(string message) : Exception(message);

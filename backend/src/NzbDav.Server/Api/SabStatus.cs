namespace NzbDav.Server.Api;

/// <summary><c>{"status":…,"error":…}</c>.</summary>
public sealed record SabStatus(bool Status, string? Error);

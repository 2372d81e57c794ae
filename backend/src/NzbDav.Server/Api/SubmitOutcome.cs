namespace NzbDav.Server.Api;

/// <summary>What happened to a submitted NZB: a job id, or the reason it was refused.</summary>
public sealed record SubmitOutcome(string? NzoId, string? Error);

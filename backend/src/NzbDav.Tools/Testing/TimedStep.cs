namespace NzbDav.Tools.Testing;

/// <summary>One timed ingestion step.</summary>
public sealed record TimedStep(string Name, TimeSpan Elapsed, string Detail);

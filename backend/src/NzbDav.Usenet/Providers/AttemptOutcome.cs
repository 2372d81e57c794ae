namespace NzbDav.Usenet.Providers;

/// <summary>What one try of one article on one provider came to.</summary>
internal readonly record struct AttemptOutcome<T>(AttemptResult Result, T? Value, ProviderFailure? Failure)
{
    public static AttemptOutcome<T> Found(T value) => new(AttemptResult.Found, value, null);

    public static AttemptOutcome<T> Missing() => new(AttemptResult.Missing, default, null);

    /// <summary>A connection-level failure: another session of the same provider may succeed.</summary>
    public static AttemptOutcome<T> Retry(ProviderFailure failure) => new(AttemptResult.Retry, default, failure);

    /// <summary>This provider cannot help with this article now (corrupt copy, auth, pool busy).</summary>
    public static AttemptOutcome<T> NextProvider(ProviderFailure failure) => new(AttemptResult.NextProvider, default, failure);
}

internal enum AttemptResult
{
    Found,
    Missing,
    Retry,
    NextProvider,
}

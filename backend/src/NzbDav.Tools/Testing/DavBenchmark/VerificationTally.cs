namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// The sum of every reader's <see cref="ReadVerifier"/>. Each request verifies with its own
/// verifier (they are not thread-safe) and adds it here once it is done.
/// </summary>
internal sealed class VerificationTally
{
    private readonly Lock _gate = new();
    private long _verifiedBytes;
    private long _mismatchedReads;
    private long _mismatchedBytes;
    private long? _firstMismatchOffset;
    private string? _firstMismatchPath;

    /// <summary>The request path of the first wrong byte, or null.</summary>
    public string? FirstMismatchPath
    {
        get
        {
            lock (_gate)
            {
                return _firstMismatchPath;
            }
        }
    }

    public void Add(string path, ReadVerifier verifier)
    {
        lock (_gate)
        {
            _verifiedBytes += verifier.VerifiedBytes;
            _mismatchedReads += verifier.MismatchedReads;
            _mismatchedBytes += verifier.MismatchedBytes;
            if (_firstMismatchOffset is null && verifier.FirstMismatchOffset is { } offset)
            {
                _firstMismatchOffset = offset;
                _firstMismatchPath = path;
            }
        }
    }

    public VerificationResult Result()
    {
        lock (_gate)
        {
            return new VerificationResult(true, _verifiedBytes, _mismatchedReads, _firstMismatchOffset) { MismatchedBytes = _mismatchedBytes };
        }
    }
}

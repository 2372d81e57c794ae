namespace NzbDav.Tools.Testing;

/// <summary>Whether the bytes read matched the file's true content (mock files only).</summary>
public sealed record VerificationResult(bool Enabled, long VerifiedBytes, long MismatchedReads, long? FirstMismatchOffset)
{
    /// <summary>Bytes that differed from the expected content (counted where the reader keeps them; 0 otherwise).</summary>
    public long MismatchedBytes { get; init; }
}

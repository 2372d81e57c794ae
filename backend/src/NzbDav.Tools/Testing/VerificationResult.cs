namespace NzbDav.Tools.Testing;

/// <summary>Whether the bytes read matched the file's true content (mock files only).</summary>
public sealed record VerificationResult(bool Enabled, long VerifiedBytes, long MismatchedReads, long? FirstMismatchOffset);

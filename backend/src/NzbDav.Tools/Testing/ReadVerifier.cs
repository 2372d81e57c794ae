using System.Buffers;

namespace NzbDav.Tools.Testing;

/// <summary>Writes the true bytes of a file at an offset into a span.</summary>
internal delegate void ExpectedBytesReader(long offset, Span<byte> destination);

/// <summary>
/// Compares every byte the tester reads with the file's true content (known only for mock files).
/// A benchmark that returns wrong bytes must fail, however fast it was.
/// </summary>
internal sealed class ReadVerifier(ExpectedBytesReader? expected)
{
    /// <summary>Whether the true content is known at all.</summary>
    public bool Enabled => expected is not null;

    public long VerifiedBytes { get; private set; }

    public long MismatchedReads { get; private set; }

    /// <summary>Bytes that differed from the expected content, over every read.</summary>
    public long MismatchedBytes { get; private set; }

    /// <summary>File offset of the first wrong byte, or null.</summary>
    public long? FirstMismatchOffset { get; private set; }

    public void Verify(long offset, ReadOnlySpan<byte> actual)
    {
        if (expected is null || actual.IsEmpty)
        {
            return;
        }

        var scratch = ArrayPool<byte>.Shared.Rent(actual.Length);
        try
        {
            var truth = scratch.AsSpan(0, actual.Length);
            expected(offset, truth);
            var differs = truth.CommonPrefixLength(actual);
            if (differs < actual.Length)
            {
                MismatchedReads++;
                FirstMismatchOffset ??= offset + differs;
                for (var i = differs; i < actual.Length; i++)
                {
                    if (truth[i] != actual[i])
                    {
                        MismatchedBytes++;
                    }
                }
            }

            VerifiedBytes += actual.Length;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(scratch);
        }
    }
}

namespace NzbDav.Streaming.Combined;

/// <summary>
/// One byte range of a <see cref="CombinedStream"/>: <see cref="Length"/> bytes starting at
/// <see cref="Offset"/> within the stream <see cref="Open"/> returns (for example a RAR volume, an
/// <c>.001</c> split, or one NZB file of a multipart release).
/// </summary>
/// <remarks>
/// <see cref="Open"/> must return a NEW readable stream positioned at its beginning each time it is
/// called: the combined stream opens a part lazily, may dispose it when it falls out of its small
/// cache, and opens it again (never reusing the disposed one) when a read comes back to it.
/// </remarks>
public sealed record CombinedStreamPart
{
    /// <summary>Creates a part from a <see cref="ValueTask{TResult}"/> factory.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A negative offset or length.</exception>
    public CombinedStreamPart(Func<CancellationToken, ValueTask<Stream>> open, long offset, long length)
    {
        ArgumentNullException.ThrowIfNull(open);
        ArgumentOutOfRangeException.ThrowIfNegative(offset);
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        if (offset > long.MaxValue - length)
        {
            throw new ArgumentOutOfRangeException(nameof(length), length, $"Offset {offset} + length {length} overflows.");
        }

        Open = open;
        Offset = offset;
        Length = length;
    }

    /// <summary>Opens a fresh inner stream, positioned at its beginning.</summary>
    public Func<CancellationToken, ValueTask<Stream>> Open { get; }

    /// <summary>Where this part's bytes start within the inner stream.</summary>
    public long Offset { get; }

    /// <summary>How many bytes of the inner stream belong to this part.</summary>
    public long Length { get; }
}

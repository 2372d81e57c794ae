namespace NzbDav.Streaming.Combined;

/// <summary>An inner stream the combined stream has open, and where in it the next read happens.</summary>
internal sealed class OpenInnerStream(int partIndex, Stream stream)
{
    /// <summary>Index into the combined stream's non-empty parts.</summary>
    public int PartIndex { get; } = partIndex;

    public Stream Stream { get; } = stream;

    /// <summary>
    /// Where the next read of <see cref="Stream"/> comes from, tracked here so a sequential read
    /// never seeks (seeking a segment stream can reset its read-ahead).
    /// </summary>
    public long InnerPosition { get; set; }
}

namespace NzbDav.MockNntp.Articles;

/// <summary>A small file held in memory (tests), encoded on each request.</summary>
internal sealed class BytesContent(byte[] data) : IMockFileContent
{
    public long Length => data.Length;

    public void Read(long offset, Span<byte> destination) =>
        data.AsSpan(checked((int)offset), destination.Length).CopyTo(destination);

    public MockEncodedData Encode(int partIndex, long partBegin, int partSize) =>
        YencDataLines.Encode(data.AsSpan((int)partBegin, partSize));
}

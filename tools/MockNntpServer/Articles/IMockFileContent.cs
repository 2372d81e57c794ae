namespace NzbDav.MockNntp.Articles;

/// <summary>Where a mock file's bytes come from, and how a part of it is encoded.</summary>
internal interface IMockFileContent
{
    long Length { get; }

    /// <summary>Copies the file's bytes starting at <paramref name="offset"/> into <paramref name="destination"/> (fully).</summary>
    void Read(long offset, Span<byte> destination);

    /// <summary>The yEnc data lines (dot-stuffed, CRLF) of one part and the part's CRC-32.</summary>
    MockEncodedData Encode(int partIndex, long partBegin, int partSize);
}

/// <summary>Encoded data lines of one part (no =ybegin/=yend) and the CRC-32 of its decoded bytes.</summary>
internal readonly record struct MockEncodedData(ReadOnlyMemory<byte> Lines, uint Crc32);

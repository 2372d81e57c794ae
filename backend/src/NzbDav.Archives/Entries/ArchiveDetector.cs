namespace NzbDav.Archives.Entries;

/// <summary>Recognises archive formats by their magic bytes, never by file name.</summary>
public static class ArchiveDetector
{
    /// <summary>Bytes <see cref="Detect"/> needs to see.</summary>
    public const int PrefixLength = 16;

    private static ReadOnlySpan<byte> Rar5Signature => [0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x01, 0x00];

    private static ReadOnlySpan<byte> Rar4Marker => [0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x00];

    private static ReadOnlySpan<byte> SevenZipSignature => [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C];

    /// <summary>Format whose signature starts <paramref name="first16"/> (a shorter span is allowed).</summary>
    public static ArchiveFormat Detect(ReadOnlySpan<byte> first16)
    {
        if (first16.StartsWith(Rar5Signature))
        {
            return ArchiveFormat.Rar5;
        }

        if (first16.StartsWith(Rar4Marker))
        {
            return ArchiveFormat.Rar4;
        }

        return first16.StartsWith(SevenZipSignature) ? ArchiveFormat.SevenZip : ArchiveFormat.None;
    }
}

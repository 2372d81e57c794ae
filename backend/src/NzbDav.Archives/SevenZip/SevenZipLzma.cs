using System.Buffers.Binary;
using SharpCompress.Compressors.LZMA;

namespace NzbDav.Archives.SevenZip;

/// <summary>
/// LZMA for 7z encoded headers, through SharpCompress's decoder. Headers are small and bounded by
/// the reader, so they are decoded whole in memory.
/// </summary>
internal static class SevenZipLzma
{
    private const int PropertiesLength = 5;
    private const int MaxLiteralPositionState = 9 * 5 * 5;
    private const int MinDictionary = 4096;

    public static byte[] Decode(byte[] properties, byte[] packed, int outputSize, string what)
    {
        if (properties.Length != PropertiesLength || properties[0] >= MaxLiteralPositionState)
        {
            throw new ArchiveFormatException($"{what}: LZMA coder properties are invalid");
        }

        // A match never reaches further back than the output so far, so a dictionary as large as the
        // output decodes identically; capping it keeps a hostile header from asking for gigabytes.
        var capped = (byte[])properties.Clone();
        var dictionary = BinaryPrimitives.ReadUInt32LittleEndian(capped.AsSpan(1));
        BinaryPrimitives.WriteUInt32LittleEndian(capped.AsSpan(1), Math.Clamp(dictionary, MinDictionary, (uint)Math.Max(outputSize, MinDictionary)));

        var output = new byte[outputSize];
        int decoded;
        try
        {
            using var input = new MemoryStream(packed, writable: false);
            using var lzma = LzmaStream.Create(capped, input, packed.Length, outputSize, leaveOpen: false);
            decoded = lzma.ReadAtLeast(output, outputSize, throwOnEndOfStream: false);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            // The decoder reports damage with whatever exception the bad bits lead to; all of them
            // mean one thing here.
            throw new ArchiveFormatException($"{what}: the LZMA stream is corrupt ({e.GetType().Name}: {e.Message})");
        }

        return decoded == outputSize
            ? output
            : throw new ArchiveFormatException($"{what}: the LZMA stream ends after {decoded} of {outputSize} bytes");
    }
}

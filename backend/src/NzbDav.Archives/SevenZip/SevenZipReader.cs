using System.Buffers.Binary;
using NzbDav.Archives.Entries;
using NzbDav.Usenet.Yenc;
using static NzbDav.Archives.SevenZip.SevenZipPropertyId;

namespace NzbDav.Archives.SevenZip;

/// <summary>
/// Reads 7z headers (plain or LZMA-encoded) of a single archive or a <c>.7z.001</c> split set and
/// maps every file of a Copy folder onto volume byte ranges. Files in any other folder are refused.
/// </summary>
public sealed class SevenZipReader : IArchiveReader
{
    private const int SignatureHeaderLength = 32;
    private const int MaxHeaderLength = 64 * 1024 * 1024;
    private const int MaxEncodedHeaderRounds = 4;

    /// <inheritdoc />
    public async Task<ArchiveListing> ReadAsync(IReadOnlyList<Stream> volumes, string? password, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(volumes);
        if (volumes.Count == 0)
        {
            throw new ArgumentException("at least one volume is required", nameof(volumes));
        }

        var set = new SevenZipVolumeSet(volumes);
        var start = await set.ReadAsync(0, SignatureHeaderLength, "signature header", cancellationToken).ConfigureAwait(false);
        if (ArchiveDetector.Detect(start) != ArchiveFormat.SevenZip)
        {
            throw new ArchiveFormatException("7z archive does not start with the 7z signature");
        }

        if (start[6] != 0)
        {
            throw new UnsupportedArchiveException($"7z format version {start[6]}.{start[7]} is not supported");
        }

        VerifyCrc(start.AsSpan(12, 20), BinaryPrimitives.ReadUInt32LittleEndian(start.AsSpan(8)), "signature header");
        var nextOffset = BinaryPrimitives.ReadInt64LittleEndian(start.AsSpan(12));
        var nextSize = BinaryPrimitives.ReadInt64LittleEndian(start.AsSpan(20));
        var nextCrc = BinaryPrimitives.ReadUInt32LittleEndian(start.AsSpan(28));
        if (nextSize == 0)
        {
            return new ArchiveListing { Format = ArchiveFormat.SevenZip, VolumeCount = volumes.Count, Entries = [] };
        }

        if (nextOffset < 0 || nextSize is < 0 or > MaxHeaderLength || nextOffset > set.Length - SignatureHeaderLength - nextSize)
        {
            throw new ArchiveFormatException($"7z archive is truncated or corrupt: its header ({nextSize} bytes at offset {SignatureHeaderLength + nextOffset}) lies beyond the {set.Length} bytes of its volumes");
        }

        var header = await set.ReadAsync(SignatureHeaderLength + nextOffset, (int)nextSize, "header", cancellationToken).ConfigureAwait(false);
        VerifyCrc(header, nextCrc, "header");
        for (var round = 0; header.Length > 0 && header[0] == EncodedHeader; round++)
        {
            if (round == MaxEncodedHeaderRounds)
            {
                throw new ArchiveFormatException("7z header is encoded more than " + MaxEncodedHeaderRounds + " times");
            }

            header = await DecodeHeaderAsync(set, header, cancellationToken).ConfigureAwait(false);
        }

        return new ArchiveListing { Format = ArchiveFormat.SevenZip, VolumeCount = volumes.Count, Entries = SevenZipEntryMapper.Map(header, set) };
    }

    private static async Task<byte[]> DecodeHeaderAsync(SevenZipVolumeSet set, byte[] encoded, CancellationToken cancellationToken)
    {
        var info = ParseEncodedHeader(encoded);
        if (info.Folders.Length != 1)
        {
            throw new ArchiveFormatException($"7z encoded header has {info.Folders.Length} folders; exactly one is expected");
        }

        var folder = info.Folders[0];
        if (folder.Coders is not [var coder] || folder.PackedStreams.Length != 1 || info.PackSizes.Length < 1)
        {
            throw new UnsupportedArchiveException($"7z header is packed with {folder.Describe()}; only LZMA or Copy headers are supported");
        }

        if (coder.IsAes)
        {
            throw new ArchivePasswordException("7z archive headers are encrypted (AES); encrypted 7z archives are not supported");
        }

        var packSize = info.PackSizes[0];
        if (packSize > MaxHeaderLength)
        {
            throw new ArchiveFormatException($"7z encoded header of {packSize} bytes exceeds {MaxHeaderLength}");
        }

        var packed = await set.ReadAsync(SignatureHeaderLength + info.PackPosition, (int)packSize, "encoded header", cancellationToken).ConfigureAwait(false);
        byte[] decoded;
        if (coder.IsLzma)
        {
            decoded = LzmaDecoder.Decode(coder.Properties, packed, folder.UnpackSize);
        }
        else if (coder.IsCopy)
        {
            decoded = packed;
        }
        else
        {
            throw new UnsupportedArchiveException($"7z header is packed with {coder.Name}; only LZMA or Copy headers are supported");
        }

        if (folder.Crc is { } crc)
        {
            VerifyCrc(decoded, crc, "decoded header");
        }

        return decoded;
    }

    private static SevenZipStreamsInfo ParseEncodedHeader(byte[] encoded)
    {
        var reader = new HeaderSpanReader(encoded, "7z encoded header");
        reader.ReadByte();
        return SevenZipStreamsParser.Read(ref reader);
    }

    private static void VerifyCrc(ReadOnlySpan<byte> data, uint expected, string what)
    {
        var actual = System.IO.Hashing.Crc32.HashToUInt32(data);
        if (actual != expected)
        {
            throw new ArchiveFormatException($"7z {what} CRC32 mismatch (stored {expected:X8}, computed {actual:X8}); the archive is corrupt");
        }
    }
}

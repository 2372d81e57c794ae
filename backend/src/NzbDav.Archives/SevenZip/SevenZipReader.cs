using System.Buffers.Binary;
using System.IO.Hashing;
using System.Security.Cryptography;
using NzbDav.Archives.Crypto;
using NzbDav.Archives.Entries;
using static NzbDav.Archives.SevenZip.SevenZipPropertyId;

namespace NzbDav.Archives.SevenZip;

/// <summary>
/// Reads 7z headers (plain, LZMA-encoded, or AES-encrypted with <c>-mhe=on</c>) of a single
/// archive or a <c>.7z.001</c> split set and maps every file of a Copy folder, or of a Copy folder
/// encrypted with AES-256, onto volume byte ranges. Files in any other folder are refused.
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
        var keys = new SevenZipKeyCache(password);
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

            header = await DecodeHeaderAsync(set, header, keys, cancellationToken).ConfigureAwait(false);
        }

        var entries = await SevenZipEntryMapper.MapAsync(header, set, keys, cancellationToken).ConfigureAwait(false);
        return new ArchiveListing { Format = ArchiveFormat.SevenZip, VolumeCount = volumes.Count, Entries = entries };
    }

    /// <summary>
    /// Unpacks a kEncodedHeader: one folder whose coders form a chain of Copy, LZMA and AES (7-Zip
    /// writes LZMA, and AES then LZMA with <c>-mhe=on</c>). With AES in the chain, a wrong
    /// password shows as an LZMA stream or CRC that does not hold, so those failures are reported
    /// as a wrong password.
    /// </summary>
    private static async Task<byte[]> DecodeHeaderAsync(SevenZipVolumeSet set, byte[] encoded, SevenZipKeyCache keys, CancellationToken cancellationToken)
    {
        var info = ParseEncodedHeader(encoded);
        if (info.Folders.Length != 1)
        {
            throw new ArchiveFormatException($"7z encoded header has {info.Folders.Length} folders; exactly one is expected");
        }

        var folder = info.Folders[0];
        var chain = folder.Chain();
        if (chain is null || info.PackSizes.Length < 1 || chain.Any(i => folder.Coders[i] is not ({ IsCopy: true } or { IsLzma: true } or { IsAes: true })))
        {
            throw new UnsupportedArchiveException($"7z header is packed with {folder.Describe()}; only LZMA, AES and Copy headers are supported");
        }

        var packSize = info.PackSizes[0];
        if (packSize > MaxHeaderLength)
        {
            throw new ArchiveFormatException($"7z encoded header of {packSize} bytes exceeds {MaxHeaderLength}");
        }

        var data = await set.ReadAsync(SignatureHeaderLength + info.PackPosition, (int)packSize, "encoded header", cancellationToken).ConfigureAwait(false);
        SevenZipAesProperties? aes = null;
        try
        {
            foreach (var index in chain)
            {
                var coder = folder.Coders[index];
                var size = folder.UnpackSizes[index];
                if (size > MaxHeaderLength)
                {
                    throw new ArchiveFormatException($"7z encoded header unpacks to {size} bytes, more than {MaxHeaderLength}");
                }

                if (coder.IsAes)
                {
                    aes = SevenZipAesProperties.Parse(coder.Properties, "7z encoded header");
                    data = DecryptHeader(keys.Resolve(aes, "the 7z archive's header"), aes.Iv, data, (int)size);
                }
                else if (coder.IsLzma)
                {
                    data = SevenZipLzma.Decode(coder.Properties, data, (int)size, "7z encoded header");
                }
                else if (data.Length != size)
                {
                    throw new ArchiveFormatException($"7z encoded header: a Copy coder turns {data.Length} bytes into {size}");
                }
            }

            if (folder.Crc is { } crc)
            {
                VerifyCrc(data, crc, "decoded header");
            }
        }
        catch (ArchiveFormatException e) when (aes is not null && e is not ArchivePasswordException and not UnsupportedArchiveException)
        {
            throw new ArchivePasswordException($"wrong password for the 7z archive: its encrypted header does not decrypt to a valid header (or is damaged: {e.Message})");
        }

        if (aes is not null && folder.Crc is not null)
        {
            keys.MarkVerified(aes);
        }

        return data;
    }

    private static byte[] DecryptHeader(byte[] key, byte[] iv, byte[] cipher, int size)
    {
        if (cipher.Length % 16 != 0 || size > cipher.Length)
        {
            throw new ArchiveFormatException($"7z encoded header: {cipher.Length} encrypted bytes are not whole AES blocks covering {size}");
        }

        using var aes = Aes.Create();
        aes.Key = key;
        var plain = aes.DecryptCbc(cipher, iv, PaddingMode.None);
        return plain.Length == size ? plain : plain[..size];
    }

    private static SevenZipStreamsInfo ParseEncodedHeader(byte[] encoded)
    {
        var reader = new HeaderSpanReader(encoded, "7z encoded header");
        reader.ReadByte();
        return SevenZipStreamsParser.Read(ref reader);
    }

    private static void VerifyCrc(ReadOnlySpan<byte> data, uint expected, string what)
    {
        var actual = Crc32.HashToUInt32(data);
        if (actual != expected)
        {
            throw new ArchiveFormatException($"7z {what} CRC32 mismatch (stored {expected:X8}, computed {actual:X8}); the archive is corrupt");
        }
    }
}

using System.IO.Hashing;
using System.Security.Cryptography;
using NzbDav.Archives.Crypto;
using NzbDav.Archives.Entries;

namespace NzbDav.Archives.SevenZip;

/// <summary>
/// 7z stores no password check value, so a password is proven on decrypted bytes whose content is
/// known, reading as little as possible (every byte read at ingestion is a Usenet fetch):
/// <list type="number">
/// <item>The zero padding that fills an encrypted folder's last AES block. One 32-byte read; a wrong
/// key turns the padding into noise. Four or more padding bytes prove the key (a wrong one passes
/// with odds of 2^-32); fewer can still refute it.</item>
/// <item>Otherwise the CRC-32 of the smallest file of up to <see cref="MaxCheckedFileBytes"/> in a
/// folder sharing the key, decrypted whole.</item>
/// </list>
/// A key neither check reaches (a folder whose size is a multiple of 16 and holds only larger files)
/// is left unverified, like RAR4's: its entries say so and the ingestion logs it. An encrypted
/// header proves the key before any of this runs, as its CRC is checked after decryption.
/// </summary>
internal static class SevenZipPasswordCheck
{
    /// <summary>Largest file decrypted whole to check its CRC: one or two Usenet articles.</summary>
    public const int MaxCheckedFileBytes = 1024 * 1024;

    private const int BlockSize = 16;
    private const int ProvingPadding = 4;

    public static async Task VerifyAsync(
        IEnumerable<SevenZipStoredFolder> folders,
        IReadOnlyList<SevenZipPlacedFile> placed,
        uint?[] crcs,
        SevenZipVolumeSet set,
        SevenZipKeyCache keys,
        CancellationToken cancellationToken)
    {
        foreach (var group in folders.Where(f => f.Aes is not null).GroupBy(f => SevenZipKeyCache.Id(f.Aes!), StringComparer.Ordinal))
        {
            var aes = group.First().Aes!;
            if (keys.IsVerified(aes))
            {
                continue;
            }

            var key = keys.Resolve(aes, "7z folder");
            // Of the folders whose padding proves a key, the last one ends where the header begins,
            // most often in an article fetched already to read the header.
            var padded = group.Where(f => f.PackSize - f.UnpackSize >= ProvingPadding).MaxBy(f => f.PackStart)
                ?? group.Where(f => f.PackSize > f.UnpackSize).MaxBy(f => f.PackSize - f.UnpackSize);
            if (padded is not null)
            {
                await CheckPaddingAsync(padded, key, FirstPath(placed, padded), set, cancellationToken).ConfigureAwait(false);
                if (padded.PackSize - padded.UnpackSize >= ProvingPadding)
                {
                    keys.MarkVerified(aes);
                    continue;
                }
            }

            var folderIndexes = group.ToDictionary(f => f.Index);
            var small = placed
                .Where(p => folderIndexes.ContainsKey(p.Folder) && p.Size is > 0 and <= MaxCheckedFileBytes && crcs[p.SubStream] is not null)
                .MinBy(p => p.Size);
            if (small is not null)
            {
                await CheckCrcAsync(small, folderIndexes[small.Folder], key, crcs[small.SubStream]!.Value, set, cancellationToken).ConfigureAwait(false);
                keys.MarkVerified(aes);
            }
        }
    }

    private static async Task CheckPaddingAsync(SevenZipStoredFolder folder, byte[] key, string path, SevenZipVolumeSet set, CancellationToken cancellationToken)
    {
        var hasPrevious = folder.PackSize > BlockSize;
        var tail = await set.ReadAsync(folder.PackStart + folder.PackSize - (hasPrevious ? 2 * BlockSize : BlockSize), hasPrevious ? 2 * BlockSize : BlockSize, "encrypted folder end", cancellationToken).ConfigureAwait(false);
        var iv = hasPrevious ? tail.AsSpan(0, BlockSize) : folder.Aes!.Iv;
        var last = Decrypt(key, iv, tail.AsSpan(tail.Length - BlockSize));
        var padding = (int)Math.Min(folder.PackSize - folder.UnpackSize, BlockSize);
        if (last.AsSpan(BlockSize - padding).ContainsAnyExcept((byte)0))
        {
            throw new ArchivePasswordException($"wrong password for 7z entry '{path}' (the padding of its last AES block does not decrypt to zeros)");
        }
    }

    private static async Task CheckCrcAsync(SevenZipPlacedFile file, SevenZipStoredFolder folder, byte[] key, uint expected, SevenZipVolumeSet set, CancellationToken cancellationToken)
    {
        var firstBlock = file.OffsetInFolder / BlockSize;
        var readFrom = firstBlock == 0 ? 0 : firstBlock - 1;
        var endBlock = (file.OffsetInFolder + file.Size + BlockSize - 1) / BlockSize;
        var cipher = await set.ReadAsync(folder.PackStart + (readFrom * BlockSize), (int)((endBlock - readFrom) * BlockSize), "encrypted file", cancellationToken).ConfigureAwait(false);
        var iv = firstBlock == 0 ? folder.Aes!.Iv : cipher.AsSpan(0, BlockSize);
        var plain = Decrypt(key, iv, cipher.AsSpan((int)((firstBlock - readFrom) * BlockSize)));
        var actual = Crc32.HashToUInt32(plain.AsSpan((int)(file.OffsetInFolder % BlockSize), (int)file.Size));
        if (actual != expected)
        {
            throw new ArchivePasswordException($"wrong password for 7z entry '{file.Path}' (its decrypted bytes fail their CRC-32: stored {expected:X8}, computed {actual:X8})");
        }
    }

    private static byte[] Decrypt(byte[] key, ReadOnlySpan<byte> iv, ReadOnlySpan<byte> cipher)
    {
        using var aes = Aes.Create();
        aes.Key = key;
        return aes.DecryptCbc(cipher, iv, PaddingMode.None);
    }

    private static string FirstPath(IReadOnlyList<SevenZipPlacedFile> placed, SevenZipStoredFolder folder) =>
        placed.First(p => p.Folder == folder.Index).Path;
}

using System.Security.Cryptography;
using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Rar;

/// <summary>
/// Headers of a RAR5 archive made with encrypted headers: each is a 16-byte IV followed by the
/// header (CRC32, size, body) encrypted with AES-256-CBC and zero-padded to the block size; the
/// data area, if any, follows the padded header.
/// </summary>
internal sealed class Rar5HeaderDecryptor(byte[] key)
{
    private const int Block = 16;

    public async ValueTask<(ReadOnlyMemory<byte> Body, long DataStart)> ReadAsync(HeaderWindow window, long position, string what, CancellationToken cancellationToken)
    {
        var head = await window.ReadAsync(position, Block * 2, what, cancellationToken).ConfigureAwait(false);
        var iv = head[..Block].ToArray();
        using var aes = Aes.Create();
        aes.Key = key;
        var first = aes.DecryptCbc(head.Span[Block..], iv, PaddingMode.None);
        var (headerSize, prefixLength) = Rar5Reader.ParsePrefix(first, what, "RAR5 volume");
        var total = prefixLength + headerSize;
        var padded = (total + Block - 1) & ~(Block - 1);
        var encrypted = await window.ReadAsync(position + Block, padded, what, cancellationToken).ConfigureAwait(false);
        var plain = aes.DecryptCbc(encrypted.Span, iv, PaddingMode.None);
        try
        {
            Rar5Reader.VerifyCrc(plain.AsSpan(0, total), what);
        }
        catch (ArchiveFormatException)
        {
            throw new ArchivePasswordException($"{what}: encrypted header does not decrypt to a valid header; the password is wrong or the archive is corrupt");
        }

        return (plain.AsMemory(prefixLength, headerSize), position + Block + padded);
    }
}

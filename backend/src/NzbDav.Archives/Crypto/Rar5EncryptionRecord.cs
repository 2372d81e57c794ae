using System.Security.Cryptography;
using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Crypto;

/// <summary>
/// RAR5 file encryption extra record (type 0x01) or archive encryption header body: version 0 =
/// AES-256, KDF count = log2 of PBKDF2-HMAC-SHA256 iterations, 16-byte salt, 16-byte IV (file
/// records only) and an optional 8-byte password check value followed by a 4-byte checksum.
/// </summary>
internal sealed class Rar5EncryptionRecord
{
    public const int MaxKdfLog2 = 24;

    private const ulong PasswordCheckPresent = 0x0001;

    public required int KdfLog2 { get; init; }

    public required byte[] Salt { get; init; }

    public required byte[] Iv { get; init; }

    public byte[]? PasswordCheck { get; init; }

    public static Rar5EncryptionRecord Parse(ref HeaderSpanReader reader, bool hasIv)
    {
        var version = reader.ReadVInt();
        if (version != 0)
        {
            throw new UnsupportedArchiveException($"RAR5 encryption version {version} is not supported (only 0, AES-256)");
        }

        var flags = reader.ReadVInt();
        var kdfLog2 = reader.ReadByte();
        if (kdfLog2 > MaxKdfLog2)
        {
            throw reader.Error($"encryption KDF count 2^{kdfLog2} exceeds the RAR5 limit of 2^{MaxKdfLog2}");
        }

        var salt = reader.ReadBytes(16).ToArray();
        var iv = hasIv ? reader.ReadBytes(16).ToArray() : [];
        byte[]? check = null;
        if ((flags & PasswordCheckPresent) != 0)
        {
            check = reader.ReadBytes(8).ToArray();
            var checksum = reader.ReadBytes(4);
            Span<byte> digest = stackalloc byte[32];
            SHA256.HashData(check, digest);
            if (!digest[..4].SequenceEqual(checksum))
            {
                throw reader.Error("the password check value is corrupt (its checksum does not match)");
            }
        }

        return new Rar5EncryptionRecord { KdfLog2 = kdfLog2, Salt = salt, Iv = iv, PasswordCheck = check };
    }
}

using System.Security.Cryptography;
using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Crypto;

/// <summary>
/// Derives and checks RAR5 keys for one archive read. WinRAR reuses one salt for every file of an
/// archive, and the KDF costs tens of milliseconds, so derived keys are kept per salt and count.
/// </summary>
internal sealed class Rar5KeyCache(string? password)
{
    private readonly Dictionary<string, (byte[] Key, byte[] Check)> _derived = new(StringComparer.Ordinal);

    public ArchiveEncryption Resolve(Rar5EncryptionRecord record, string entryPath)
    {
        if (password is null)
        {
            throw new ArchivePasswordException($"RAR5 entry '{entryPath}' is encrypted and no password was given");
        }

        var (key, check) = Derive(record);
        if (record.PasswordCheck is { } expected && !CryptographicOperations.FixedTimeEquals(expected, check))
        {
            throw new ArchivePasswordException($"wrong password for RAR5 entry '{entryPath}'");
        }

        return new ArchiveEncryption
        {
            Cipher = ArchiveCipher.Aes256Cbc,
            Key = key,
            Iv = record.Iv,
            PasswordVerified = record.PasswordCheck is not null,
        };
    }

    /// <summary>Key for an encrypted-header archive; throws when the password is missing or wrong.</summary>
    public byte[] ResolveHeaderKey(Rar5EncryptionRecord record)
    {
        if (password is null)
        {
            throw new ArchivePasswordException("RAR5 archive headers are encrypted and no password was given");
        }

        var (key, check) = Derive(record);
        if (record.PasswordCheck is { } expected && !CryptographicOperations.FixedTimeEquals(expected, check))
        {
            throw new ArchivePasswordException("wrong password for the RAR5 archive (encrypted headers)");
        }

        return key;
    }

    private (byte[] Key, byte[] Check) Derive(Rar5EncryptionRecord record)
    {
        var cacheKey = Convert.ToHexString(record.Salt) + ":" + record.KdfLog2;
        if (!_derived.TryGetValue(cacheKey, out var derived))
        {
            derived = Rar5KeyDerivation.Derive(password!, record.Salt, record.KdfLog2);
            _derived[cacheKey] = derived;
        }

        return derived;
    }
}

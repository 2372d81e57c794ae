using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Crypto;

/// <summary>
/// RAR4 keys for one archive read, kept per salt: the KDF's 2^18 SHA-1 rounds are worth doing once
/// per salt, and every piece of a split file repeats its salt.
/// </summary>
internal sealed class Rar3KeyCache(string? password)
{
    private readonly Dictionary<string, (byte[] Key, byte[] Iv)> _derived = new(StringComparer.Ordinal);

    public ArchiveEncryption Resolve(ReadOnlySpan<byte> salt, string entryPath)
    {
        if (password is null)
        {
            throw new ArchivePasswordException($"RAR4 entry '{entryPath}' is encrypted and no password was given");
        }

        var cacheKey = Convert.ToHexString(salt);
        if (!_derived.TryGetValue(cacheKey, out var derived))
        {
            derived = Rar3KeyDerivation.Derive(password, salt);
            _derived[cacheKey] = derived;
        }

        return new ArchiveEncryption
        {
            Cipher = ArchiveCipher.Aes128Cbc,
            Key = derived.Key,
            Iv = derived.Iv,
            PasswordVerified = false,
        };
    }
}

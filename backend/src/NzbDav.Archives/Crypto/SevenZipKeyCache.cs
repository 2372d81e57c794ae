using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Crypto;

/// <summary>
/// 7z keys for one archive read. 7-Zip derives one key per archive (no salt by default, one IV per
/// folder), so the 2^19-round derivation runs once and a password proven on one folder, or on the
/// encrypted header, holds for every folder sharing that key.
/// </summary>
internal sealed class SevenZipKeyCache(string? password)
{
    private readonly Dictionary<string, (byte[] Key, bool Verified)> _derived = new(StringComparer.Ordinal);

    /// <summary>The key for <paramref name="properties"/>; throws when no password was given.</summary>
    public byte[] Resolve(SevenZipAesProperties properties, string what)
    {
        if (password is null)
        {
            throw new ArchivePasswordException($"{what} is encrypted and no password was given");
        }

        var id = Id(properties);
        if (!_derived.TryGetValue(id, out var derived))
        {
            derived = (SevenZipKeyDerivation.Derive(password, properties.Salt, properties.CyclesPower), false);
            _derived[id] = derived;
        }

        return derived.Key;
    }

    public bool IsVerified(SevenZipAesProperties properties) => _derived.TryGetValue(Id(properties), out var derived) && derived.Verified;

    /// <summary>Records that data encrypted with this key decrypted to bytes whose checksum matched.</summary>
    public void MarkVerified(SevenZipAesProperties properties)
    {
        var id = Id(properties);
        if (_derived.TryGetValue(id, out var derived))
        {
            _derived[id] = (derived.Key, true);
        }
    }

    /// <summary>Folders with equal ids share one key.</summary>
    public static string Id(SevenZipAesProperties properties) => Convert.ToHexString(properties.Salt) + ":" + properties.CyclesPower;
}

using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Crypto;

/// <summary>
/// Properties of 7-Zip's AES-256 coder (method 06 F1 07 01). The first byte holds the key
/// derivation's round exponent in its low 6 bits, bit 7 = a salt follows, bit 6 = an IV follows.
/// When either bit is set, the second byte adds to those sizes: high nibble to the salt's, low
/// nibble to the IV's. Then come the salt and the IV; a short IV is zero-padded to the AES block.
/// </summary>
internal sealed class SevenZipAesProperties
{
    /// <summary>
    /// 7-Zip itself refuses more than 2^24 rounds; every round hashes the password once more, so an
    /// unbounded exponent in a hostile header would pin a core for ever.
    /// </summary>
    public const int MaxCyclesPower = 24;

    /// <summary>The exponent that means "no hashing: the key is salt and password, zero-padded".</summary>
    public const int RawKeyCyclesPower = 0x3F;

    private const int BlockSize = 16;

    public required int CyclesPower { get; init; }

    public required byte[] Salt { get; init; }

    /// <summary>Always 16 bytes.</summary>
    public required byte[] Iv { get; init; }

    public static SevenZipAesProperties Parse(ReadOnlySpan<byte> properties, string what)
    {
        if (properties.IsEmpty)
        {
            throw new ArchiveFormatException($"{what}: AES coder has no properties");
        }

        var first = properties[0];
        var cyclesPower = first & 0x3F;
        var saltSize = 0;
        var ivSize = 0;
        if ((first & 0xC0) != 0)
        {
            if (properties.Length < 2)
            {
                throw new ArchiveFormatException($"{what}: AES coder properties are cut short");
            }

            saltSize = ((first >> 7) & 1) + (properties[1] >> 4);
            ivSize = ((first >> 6) & 1) + (properties[1] & 0x0F);
        }

        var expected = (first & 0xC0) != 0 ? 2 + saltSize + ivSize : 1;
        if (properties.Length != expected)
        {
            throw new ArchiveFormatException($"{what}: AES coder properties are {properties.Length} bytes, their sizes say {expected}");
        }

        if (cyclesPower > MaxCyclesPower && cyclesPower != RawKeyCyclesPower)
        {
            throw new UnsupportedArchiveException($"{what}: AES key derivation with 2^{cyclesPower} rounds exceeds the limit of 2^{MaxCyclesPower} (7-Zip's own)");
        }

        var iv = new byte[BlockSize];
        properties.Slice(expected - ivSize, ivSize).CopyTo(iv);
        return new SevenZipAesProperties
        {
            CyclesPower = cyclesPower,
            Salt = properties.Slice(2, saltSize).ToArray(),
            Iv = iv,
        };
    }
}

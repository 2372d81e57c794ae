using System.Buffers.Binary;
using System.Security.Cryptography;
using System.Text;
using NzbDav.Archives.Crypto;
using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Tests.Crypto;

/// <summary>
/// The batched derivation against the definition, one round at a time. Real archives made by 7-Zip
/// (SevenZipToolArchiveTests) check the definition itself.
/// </summary>
public sealed class SevenZipKeyDerivationTests
{
    [Theory]
    [InlineData(0, 0)]
    [InlineData(1, 8)]
    [InlineData(10, 0)]
    [InlineData(11, 16)]
    [InlineData(13, 3)]
    public void Batched_rounds_equal_one_hash_update_per_round(int cyclesPower, int saltLength)
    {
        var salt = Enumerable.Range(1, saltLength).Select(i => (byte)i).ToArray();

        Assert.Equal(Definition("pässwörd", salt, cyclesPower), SevenZipKeyDerivation.Derive("pässwörd", salt, cyclesPower));
    }

    [Fact]
    public void Exponent_0x3F_takes_salt_and_password_as_the_key()
    {
        byte[] expected = [1, 2, 3, (byte)'a', 0, (byte)'b', 0, .. new byte[25]];

        Assert.Equal(expected, SevenZipKeyDerivation.Derive("ab", [1, 2, 3], 0x3F));
        Assert.Equal(32, SevenZipKeyDerivation.Derive(new string('x', 40), [], 0x3F).Length);
    }

    [Fact]
    public void Properties_give_salt_and_a_zero_padded_iv()
    {
        // 7-Zip's usual form: 2^19 rounds, no salt, 16-byte IV (bit 6 plus 15 in the low nibble).
        var iv = Enumerable.Range(100, 16).Select(i => (byte)i).ToArray();
        var usual = SevenZipAesProperties.Parse([0x53, 0x0F, .. iv], "test");
        Assert.Equal((19, 0), (usual.CyclesPower, usual.Salt.Length));
        Assert.Equal(iv, usual.Iv);

        // Salt of 1 + 2 bytes and IV of 1 + 0 bytes.
        var salted = SevenZipAesProperties.Parse([0xC5, 0x20, 7, 8, 9, 42], "test");
        Assert.Equal(5, salted.CyclesPower);
        Assert.Equal([7, 8, 9], salted.Salt);
        Assert.Equal([42, .. new byte[15]], salted.Iv);
    }

    [Theory]
    [InlineData(new byte[0], "has no properties")]
    [InlineData(new byte[] { 0xD3 }, "cut short")]
    [InlineData(new byte[] { 0x53, 0x0F, 1, 2 }, "their sizes say 18")]
    [InlineData(new byte[] { 0x13, 0x00 }, "their sizes say 1")]
    public void Malformed_properties_are_a_format_error(byte[] properties, string reason)
    {
        var error = Assert.Throws<ArchiveFormatException>(() => SevenZipAesProperties.Parse(properties, "7z entry 'x'"));
        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Round_counts_beyond_7_zips_limit_are_refused()
    {
        var error = Assert.Throws<UnsupportedArchiveException>(() => SevenZipAesProperties.Parse([0x1F], "7z entry 'x'"));
        Assert.Contains("2^31 rounds exceeds the limit of 2^24", error.Message, StringComparison.Ordinal);
    }

    private static byte[] Definition(string password, byte[] salt, int cyclesPower)
    {
        var passwordBytes = Encoding.Unicode.GetBytes(password);
        using var sha256 = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        var counter = new byte[8];
        for (long round = 0; round < 1L << cyclesPower; round++)
        {
            BinaryPrimitives.WriteInt64LittleEndian(counter, round);
            sha256.AppendData(salt);
            sha256.AppendData(passwordBytes);
            sha256.AppendData(counter);
        }

        return sha256.GetHashAndReset();
    }
}

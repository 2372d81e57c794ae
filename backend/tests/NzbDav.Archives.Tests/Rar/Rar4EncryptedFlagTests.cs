using System.Buffers.Binary;
using System.IO.Hashing;
using NzbDav.Archives.Entries;
using NzbDav.Archives.Rar;
using NzbDav.Archives.Tests.Entries;

namespace NzbDav.Archives.Tests.Rar;

/// <summary>The real RAR4 archive with its first file header marked encrypted (CRC recomputed).</summary>
public sealed class Rar4EncryptedFlagTests
{
    private const int FirstFileHeader = 0x14;

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Encrypted_entry_without_a_password_is_refused()
    {
        using var set = VolumeSet.FromBytes(MarkFirstFileEncrypted());
        var error = await Assert.ThrowsAsync<ArchivePasswordException>(() => new Rar4Reader().ReadAsync(set.Streams, null, Token));
        Assert.Contains("exe/test.exe", error.Message);
    }

    [Fact]
    public async Task Encrypted_entry_with_a_password_carries_aes128_parameters()
    {
        using var set = VolumeSet.FromBytes(MarkFirstFileEncrypted(version: 29));
        var listing = await new Rar4Reader().ReadAsync(set.Streams, "pw", Token);
        var entry = listing.Entries.Single(e => e.Path == "exe/test.exe");
        var encryption = Assert.IsType<ArchiveEncryption>(entry.Encryption);
        Assert.Equal(ArchiveCipher.Aes128Cbc, encryption.Cipher);
        Assert.Equal(16, encryption.Key.Length);
        Assert.False(encryption.PasswordVerified);
        Assert.Null(listing.Entries.Single(e => e.Path == "jpg/test.jpg").Encryption);
    }

    [Fact]
    public async Task Pre_aes_rar_cipher_is_refused()
    {
        using var set = VolumeSet.FromBytes(MarkFirstFileEncrypted(version: 20));
        var error = await Assert.ThrowsAsync<UnsupportedArchiveException>(() => new Rar4Reader().ReadAsync(set.Streams, "pw", Token));
        Assert.Contains("pre-2.9", error.Message);
    }

    private static byte[] MarkFirstFileEncrypted(byte version = 29)
    {
        var bytes = File.ReadAllBytes(TestData.Archive("Rar.none.rar"));
        Assert.Equal(0x74, bytes[FirstFileHeader + 2]);
        var header = bytes.AsSpan(FirstFileHeader, BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(FirstFileHeader + 5)));
        header[3] |= 0x04;
        header[24] = version;
        BinaryPrimitives.WriteUInt16LittleEndian(header, (ushort)Crc32.HashToUInt32(header[2..]));
        return bytes;
    }
}

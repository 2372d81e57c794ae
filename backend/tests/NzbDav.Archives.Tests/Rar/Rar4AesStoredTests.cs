using System.IO.Hashing;
using NzbDav.Archives.Entries;
using NzbDav.Archives.Rar;
using NzbDav.Archives.Tests.Entries;

namespace NzbDav.Archives.Tests.Rar;

/// <summary>An AES-encrypted stored RAR4 entry made by the real rar tool decrypts to its known contents.</summary>
public sealed class Rar4AesStoredTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Real_encrypted_stored_entry_reads_back_with_the_password()
    {
        using var set = VolumeSet.FromBytes(Rar4AesVector.Archive());
        var listing = await new Rar4Reader().ReadAsync(set.Streams, Rar4AesVector.Password, Token);

        var entry = Assert.Single(listing.Entries);
        Assert.Equal(Rar4AesVector.EntryName, entry.Path);
        Assert.Equal(Rar4AesVector.Plaintext.Length, entry.Size);
        Assert.Equal(ArchiveCipher.Aes128Cbc, entry.Encryption!.Cipher);
        var plaintext = await set.ReadAllAsync(entry, Token);
        Assert.Equal(Rar4AesVector.Plaintext, plaintext);
        Assert.Equal(Rar4AesVector.Crc, Crc32.HashToUInt32(plaintext));
    }

    [Fact]
    public async Task A_wrong_password_gives_other_bytes_that_fail_the_stored_crc()
    {
        using var set = VolumeSet.FromBytes(Rar4AesVector.Archive());
        var listing = await new Rar4Reader().ReadAsync(set.Streams, "nope", Token);

        var plaintext = await set.ReadAllAsync(Assert.Single(listing.Entries), Token);
        Assert.NotEqual(Rar4AesVector.Crc, Crc32.HashToUInt32(plaintext));
    }
}

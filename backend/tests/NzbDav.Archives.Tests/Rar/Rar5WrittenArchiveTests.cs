using NzbDav.Archives.Entries;
using NzbDav.Archives.Rar;
using NzbDav.Archives.Tests.Entries;

namespace NzbDav.Archives.Tests.Rar;

/// <summary>Round trips through archives made by <see cref="Rar5TestWriter"/>.</summary>
public sealed class Rar5WrittenArchiveTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    private static readonly TestFile[] Files =
    [
        new("dir", [], IsDirectory: true),
        TestFile.Random("dir/a.bin", 1000, 1),
        TestFile.Random("b.bin", 4096, 2),
        new("empty.txt", []),
        TestFile.Random("c.bin", 33_333, 3),
    ];

    [Fact]
    public async Task Plain_written_archive_round_trips()
    {
        using var set = VolumeSet.FromBytes(new Rar5TestWriter().Write(Files));
        await AssertRoundTripAsync(set, null, expectEncrypted: false);
    }

    [Fact]
    public async Task Split_written_archive_round_trips_across_many_volumes()
    {
        using var set = VolumeSet.FromBytes(new Rar5TestWriter { DataBytesPerVolume = 7000 }.Write(Files));
        Assert.True(set.Streams.Count > 4);
        await AssertRoundTripAsync(set, null, expectEncrypted: false);
    }

    [Fact]
    public async Task Encrypted_archive_with_the_right_password_round_trips()
    {
        using var set = VolumeSet.FromBytes(new Rar5TestWriter { Password = "s3cret é" }.Write(Files));
        await AssertRoundTripAsync(set, "s3cret é", expectEncrypted: true);
    }

    [Fact]
    public async Task Encrypted_split_archive_round_trips()
    {
        using var set = VolumeSet.FromBytes(new Rar5TestWriter { Password = "pw", DataBytesPerVolume = 5000 }.Write(Files));
        await AssertRoundTripAsync(set, "pw", expectEncrypted: true);
    }

    [Fact]
    public async Task Encrypted_archive_with_a_wrong_password_is_refused()
    {
        using var set = VolumeSet.FromBytes(new Rar5TestWriter { Password = "right" }.Write(Files));
        var error = await Assert.ThrowsAsync<ArchivePasswordException>(() => new Rar5Reader().ReadAsync(set.Streams, "wrong", Token));
        Assert.Contains("wrong password", error.Message);
    }

    [Fact]
    public async Task Encrypted_archive_without_a_password_is_refused()
    {
        using var set = VolumeSet.FromBytes(new Rar5TestWriter { Password = "right" }.Write(Files));
        var error = await Assert.ThrowsAsync<ArchivePasswordException>(() => new Rar5Reader().ReadAsync(set.Streams, null, Token));
        Assert.Contains("no password", error.Message);
    }

    [Fact]
    public async Task Encrypted_headers_round_trip_with_the_right_password()
    {
        using var set = VolumeSet.FromBytes(new Rar5TestWriter { Password = "hp", EncryptHeaders = true, DataBytesPerVolume = 9000 }.Write(Files));
        await AssertRoundTripAsync(set, "hp", expectEncrypted: true);
    }

    [Theory]
    [InlineData(null)]
    [InlineData("nope")]
    public async Task Encrypted_headers_without_the_right_password_are_refused(string? password)
    {
        using var set = VolumeSet.FromBytes(new Rar5TestWriter { Password = "hp", EncryptHeaders = true }.Write(Files));
        await Assert.ThrowsAsync<ArchivePasswordException>(() => new Rar5Reader().ReadAsync(set.Streams, password, Token));
    }

    [Theory]
    [InlineData("../evil.txt")]
    [InlineData("a/../../evil.txt")]
    [InlineData("C:/Windows/evil.dll")]
    [InlineData("..\\evil.txt")]
    public async Task Names_that_escape_the_archive_are_refused(string name)
    {
        using var set = VolumeSet.FromBytes(new Rar5TestWriter().Write(TestFile.Random(name, 10, 4)));
        var error = await Assert.ThrowsAsync<ArchiveFormatException>(() => new Rar5Reader().ReadAsync(set.Streams, null, Token));
        Assert.Contains("refused", error.Message);
    }

    [Fact]
    public async Task Leading_slash_and_dot_segments_are_normalized()
    {
        using var set = VolumeSet.FromBytes(new Rar5TestWriter().Write(TestFile.Random("/./x//y.bin", 10, 5)));
        var listing = await new Rar5Reader().ReadAsync(set.Streams, null, Token);
        Assert.Equal("x/y.bin", Assert.Single(listing.Entries).Path);
    }

    [Fact]
    public async Task Compressed_entry_is_refused_naming_the_entry_and_method()
    {
        using var set = VolumeSet.FromBytes(new Rar5TestWriter { Method = 3 }.Write(TestFile.Random("movie.mkv", 100, 6)));
        var error = await Assert.ThrowsAsync<UnsupportedArchiveException>(() => new Rar5Reader().ReadAsync(set.Streams, null, Token));
        Assert.Equal("RAR5 entry 'movie.mkv' is compressed (RAR method 3); compressed archives cannot be streamed", error.Message);
    }

    [Fact]
    public async Task Missing_middle_volume_of_an_encrypted_set_is_refused()
    {
        var volumes = new Rar5TestWriter { Password = "pw", DataBytesPerVolume = 5000 }.Write(Files);
        using var set = VolumeSet.FromBytes([.. volumes.Where((_, i) => i != 2)]);
        await Assert.ThrowsAsync<ArchiveFormatException>(() => new Rar5Reader().ReadAsync(set.Streams, "pw", Token));
    }

    private static async Task AssertRoundTripAsync(VolumeSet set, string? password, bool expectEncrypted)
    {
        var listing = await new ArchiveReader().ReadAsync(set.Streams, password, Token);
        Assert.Equal(Files.Select(f => f.Name), listing.Entries.Select(e => e.Path));
        foreach (var (file, entry) in Files.Zip(listing.Entries))
        {
            Assert.Equal(file.IsDirectory, entry.IsDirectory);
            Assert.Equal(file.Data.Length, entry.Size);
            Assert.Equal(DateTimeOffset.FromUnixTimeSeconds(1_700_000_000), entry.Modified);
            if (file.IsDirectory)
            {
                continue;
            }

            Assert.Equal(expectEncrypted, entry.Encryption is not null);
            if (entry.Encryption is { } encryption)
            {
                Assert.True(encryption.PasswordVerified);
                Assert.Equal(ArchiveCipher.Aes256Cbc, encryption.Cipher);
            }

            Assert.Equal(file.Data, await set.ReadAllAsync(entry, Token));
        }
    }
}

using System.Security.Cryptography;
using NzbDav.Archives.Entries;
using NzbDav.Archives.Tests.Entries;
using SharpCompress.Archives;
using SharpCompress.Readers;

namespace NzbDav.Archives.Tests.SevenZip;

/// <summary>Several files in one AES folder: entries start inside the CBC stream, at offsets that are not block-aligned.</summary>
public sealed class SevenZipAesFolderTests
{
    private const string Password = "folder-pass";

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    public static IReadOnlyList<(string Name, byte[] Data)> Files { get; } =
    [
        ("a.nfo", Random(5, 1)),
        ("b.srt", Random(37, 2)),
        ("c/d.mkv", Random(70_001, 3)),
        ("e.bin", Random(16, 4)),
        ("f.txt", Random(1_003, 5)),
    ];

    [Fact]
    public async Task Every_file_of_the_folder_reads_back_and_matches_sharpcompress()
    {
        var archive = SevenZipAesTestWriter.Write(Files, Password);
        using var set = VolumeSet.FromBytes(archive);
        var listing = await new ArchiveReader().ReadAsync(set.Streams, Password, Token);

        Assert.Equal(Files.Select(f => f.Name), listing.Entries.Select(e => e.Path));
        foreach (var (entry, file) in listing.Entries.Zip(Files))
        {
            Assert.Equal(file.Data, await set.ReadAllAsync(entry, Token));
            Assert.True(entry.Encryption!.PasswordVerified);
        }

        // Files start at 0, 5, 42, 70043 and 70059 of the folder; all but the first are read from the
        // block before their own, whose ciphertext chains into it, and skip that block's decryption.
        Assert.Equal([0L, 5, 26, 27, 27], listing.Entries.Select(e => e.Encryption!.PlaintextOffset));

        using var oracle = ArchiveFactory.OpenArchive([new MemoryStream(archive)], new ReaderOptions { Password = Password });
        var extracted = oracle.Entries.Where(e => !e.IsDirectory).Select(e =>
        {
            using var stream = e.OpenEntryStream();
            return (e.Key!, Convert.ToHexStringLower(SHA256.HashData(stream)));
        });
        Assert.Equal(Files.Select(f => (f.Name, Convert.ToHexStringLower(SHA256.HashData(f.Data)))), extracted);
    }

    [Fact]
    public async Task An_entry_inside_the_stream_seeks_anywhere()
    {
        using var set = VolumeSet.FromBytes(SevenZipAesTestWriter.Write(Files, Password));
        var listing = await new ArchiveReader().ReadAsync(set.Streams, Password, Token);
        var entry = listing.Entries[2];
        var expected = Files[2].Data;

        await using var stream = ArchiveEntryStream.Open(entry, set.Streams);
        await RandomReads.MatchAsync(stream, expected, seed: 9, count: 200, maxRead: 3000, Token);
    }

    [Fact]
    public async Task Wrong_password_is_refused_by_the_padding()
    {
        using var set = VolumeSet.FromBytes(SevenZipAesTestWriter.Write(Files, Password));

        var error = await Assert.ThrowsAsync<ArchivePasswordException>(() => new ArchiveReader().ReadAsync(set.Streams, "wrong", Token));

        Assert.Equal("wrong password for 7z entry 'a.nfo' (the padding of its last AES block does not decrypt to zeros)", error.Message);
    }

    [Fact]
    public async Task Without_padding_the_smallest_checksummed_file_decides()
    {
        // 5 + 37 + 70001 + 16 + 1013 = 71072 bytes, exactly 4442 AES blocks: no padding to check.
        var files = Files.Take(4).Append(("f.txt", Random(1_013, 5))).ToArray();
        Assert.Equal(0, files.Sum(f => f.Item2.Length) % 16);
        using var set = VolumeSet.FromBytes(SevenZipAesTestWriter.Write(files, Password));

        var listing = await new ArchiveReader().ReadAsync(set.Streams, Password, Token);
        Assert.All(listing.Entries, e => Assert.True(e.Encryption!.PasswordVerified, e.Path));

        var error = await Assert.ThrowsAsync<ArchivePasswordException>(() => new ArchiveReader().ReadAsync(set.Streams, "wrong", Token));
        Assert.StartsWith("wrong password for 7z entry 'a.nfo' (its decrypted bytes fail their CRC-32", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Without_padding_or_checksums_the_entries_stay_unverified()
    {
        var files = Files.Take(4).Append(("f.txt", Random(1_013, 5))).ToArray();
        using var set = VolumeSet.FromBytes(SevenZipAesTestWriter.Write(files, Password, withCrcs: false));

        var listing = await new ArchiveReader().ReadAsync(set.Streams, Password, Token);

        Assert.All(listing.Entries, e => Assert.False(e.Encryption!.PasswordVerified, e.Path));
    }

    private static byte[] Random(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }
}

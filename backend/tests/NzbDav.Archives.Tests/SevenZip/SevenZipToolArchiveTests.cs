using NzbDav.Archives.Entries;
using NzbDav.Archives.Tests.Entries;
using NzbDav.Archives.Tests.Release;

namespace NzbDav.Archives.Tests.SevenZip;

/// <summary>7z archives made now by Debian's 7-Zip: stored, split, AES-encrypted entries and encrypted headers.</summary>
public sealed class SevenZipToolArchiveTests
{
    // Non-ASCII on purpose: 7-Zip hashes the password as UTF-16LE.
    public const string Password = "pässwörd-7z";

    // A multiple of the AES block (no padding) and larger than the biggest file checked by CRC.
    private const int MaxUncheckable = (1024 * 1024) + 16;

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    public static TheoryData<string, string[], string?> Kinds => new()
    {
        { "stored", ["-mx0"], null },
        { "split", ["-mx0", "-v64k"], null },
        { "aes", ["-mx0", "-p" + Password], Password },
        { "aes-split", ["-mx0", "-p" + Password, "-v64k"], Password },
        { "encrypted-headers", ["-mx0", "-p" + Password, "-mhe=on"], Password },
        { "encrypted-headers-split", ["-mx0", "-p" + Password, "-mhe=on", "-v64k"], Password },
    };

    [Theory]
    [MemberData(nameof(Kinds))]
    public async Task Every_file_reads_back_byte_exact(string kind, string[] switches, string? password)
    {
        using var directory = new TempDirectory();
        var files = SevenZipTool.SampleFiles();
        var volumes = await SevenZipTool.CreateAsync(directory.Path, kind + ".7z", files, switches, Token);
        using var set = VolumeSet.OpenFiles(volumes);

        var listing = await new ArchiveReader().ReadAsync(set.Streams, password, Token);

        Assert.Equal(ArchiveFormat.SevenZip, listing.Format);
        Assert.Equal(volumes.Length, listing.VolumeCount);
        Assert.Contains(listing.Entries, e => e is { IsDirectory: true, Path: "Sample" });
        var entries = listing.Entries.Where(e => !e.IsDirectory).ToList();
        Assert.Equal(files.Keys.Order(StringComparer.Ordinal), entries.Select(e => e.Path).Order(StringComparer.Ordinal));
        foreach (var entry in entries)
        {
            Assert.Equal(files[entry.Path].Length, entry.Size);
            Assert.Equal(files[entry.Path], await set.ReadAllAsync(entry, Token));
            Assert.Equal(password is not null && entry.Size > 0, entry.Encryption is not null);
        }
    }

    [Fact]
    public async Task Split_volumes_cut_the_big_file_across_volumes()
    {
        using var directory = new TempDirectory();
        var volumes = await SevenZipTool.CreateAsync(directory.Path, "split.7z", SevenZipTool.SampleFiles(), ["-mx0", "-v64k"], Token);
        using var set = VolumeSet.OpenFiles(volumes);

        var listing = await new ArchiveReader().ReadAsync(set.Streams, null, Token);

        Assert.True(volumes.Length >= 3, string.Join(", ", volumes));
        Assert.EndsWith(".7z.001", volumes[0], StringComparison.Ordinal);
        var big = Assert.Single(listing.Entries, e => e.Path == "Show.S01E01.mkv");
        Assert.True(big.Ranges.Select(r => r.VolumeIndex).Distinct().Count() >= 2);
    }

    [Theory]
    [InlineData("-mhe=off")]
    [InlineData("-mhe=on")]
    public async Task Aes_entries_seek_anywhere(string headerSwitch)
    {
        using var directory = new TempDirectory();
        var files = SevenZipTool.SampleFiles(seed: 3);
        var volumes = await SevenZipTool.CreateAsync(directory.Path, "seek.7z", files, ["-mx0", "-p" + Password, headerSwitch, "-v50k"], Token);
        using var set = VolumeSet.OpenFiles(volumes);
        var listing = await new ArchiveReader().ReadAsync(set.Streams, Password, Token);
        var entry = Assert.Single(listing.Entries, e => e.Path == "Show.S01E01.mkv");
        var expected = files[entry.Path];

        await using var stream = ArchiveEntryStream.Open(entry, set.Streams);
        await RandomReads.MatchAsync(stream, expected, seed: 5, count: 100, maxRead: 70_000, Token);
    }

    [Theory]
    [InlineData("-mhe=off", null, "no password was given")]
    [InlineData("-mhe=off", "not-the-password", "wrong password")]
    [InlineData("-mhe=on", null, "no password was given")]
    [InlineData("-mhe=on", "not-the-password", "wrong password")]
    public async Task Missing_or_wrong_password_is_refused_with_the_reason(string headerSwitch, string? password, string reason)
    {
        using var directory = new TempDirectory();
        var volumes = await SevenZipTool.CreateAsync(directory.Path, "locked.7z", SevenZipTool.SampleFiles(), ["-mx0", "-p" + Password, headerSwitch], Token);
        using var set = VolumeSet.OpenFiles(volumes);

        var error = await Assert.ThrowsAsync<ArchivePasswordException>(() => new ArchiveReader().ReadAsync(set.Streams, password, Token));

        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("-mhe=off")]
    [InlineData("-mhe=on")]
    public async Task Damaged_encrypted_archive_gives_a_format_error_or_a_listing(string headerSwitch)
    {
        using var directory = new TempDirectory();
        var volumes = await SevenZipTool.CreateAsync(directory.Path, "damaged.7z", SevenZipTool.SampleFiles(), ["-mx0", "-p" + Password, headerSwitch], Token);
        var original = await File.ReadAllBytesAsync(volumes[0], Token);
        var random = new Random(headerSwitch.Length);
        var cases = new List<(string What, byte[] Bytes)>();
        foreach (var length in new[] { 0, 6, 31, 32, 33, 100, original.Length / 2, original.Length - 300, original.Length - 100, original.Length - 20, original.Length - 1 })
        {
            cases.Add(($"cut at {length}", original[..length]));
        }

        for (var i = 0; i < 60; i++)
        {
            var bytes = (byte[])original.Clone();
            // Mostly the tail, where the (encrypted) header and the folders' last blocks are.
            var position = i % 4 == 0 ? random.Next(32) : bytes.Length - 1 - random.Next(400);
            bytes[position] ^= (byte)random.Next(1, 256);
            cases.Add(($"byte {position} changed", bytes));
        }

        foreach (var (what, bytes) in cases)
        {
            using var set = VolumeSet.FromBytes(bytes);
            var error = await Record.ExceptionAsync(() => new ArchiveReader().ReadAsync(set.Streams, Password, Token));
            Assert.True(error is null or ArchiveFormatException, $"{what}: {error?.GetType().Name}: {error?.Message}");
        }
    }

    [Fact]
    public async Task Zero_padding_of_the_last_block_proves_the_password()
    {
        // 150001 bytes leave 15 bytes of padding in the folder's last AES block.
        var files = new Dictionary<string, byte[]> { ["big.mkv"] = new byte[150_001] };
        var listing = await ListAsync(files, Password);
        Assert.True(Assert.Single(listing.Entries).Encryption!.PasswordVerified);

        var error = await Assert.ThrowsAsync<ArchivePasswordException>(() => ListAsync(files, Password, "wrong"));
        Assert.Contains("padding", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Crc_of_a_small_file_proves_the_password_when_padding_cannot()
    {
        // 2 bytes of padding are too few to prove a key and 160000 bytes leave none: the small file's CRC decides.
        var files = new Dictionary<string, byte[]> { ["big.mkv"] = Random(160_000, 1), ["small.nfo"] = Random(1_006, 2) };
        var listing = await ListAsync(files, Password);
        Assert.All(listing.Entries, e => Assert.True(e.Encryption!.PasswordVerified, e.Path));

        var error = await Assert.ThrowsAsync<ArchivePasswordException>(() => ListAsync(files, Password, "wrong"));
        Assert.Contains("wrong password", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Encrypted_header_proves_the_password_for_every_entry()
    {
        var files = new Dictionary<string, byte[]> { ["big.mkv"] = Random(MaxUncheckable, 1) };
        var listing = await ListAsync(files, Password, switches: "-mhe=on");

        Assert.True(Assert.Single(listing.Entries).Encryption!.PasswordVerified);
    }

    [Fact]
    public async Task Without_padding_or_small_file_the_password_stays_unverified()
    {
        // Whole AES blocks and no file small enough to check: 7z gives nothing to test a key on,
        // so the entry is listed and says it is unverified (ingestion logs a warning).
        var files = new Dictionary<string, byte[]> { ["big.mkv"] = Random(MaxUncheckable, 1) };
        var listing = await ListAsync(files, Password);

        Assert.False(Assert.Single(listing.Entries).Encryption!.PasswordVerified);
    }

    private static byte[] Random(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }

    private static async Task<ArchiveListing> ListAsync(IReadOnlyDictionary<string, byte[]> files, string archivePassword, string? givenPassword = null, string switches = "-mhe=off")
    {
        using var directory = new TempDirectory();
        var volumes = await SevenZipTool.CreateAsync(directory.Path, "check.7z", files, ["-mx0", "-p" + archivePassword, switches], Token);
        using var set = VolumeSet.OpenFiles(volumes);
        return await new ArchiveReader().ReadAsync(set.Streams, givenPassword ?? archivePassword, Token);
    }
}

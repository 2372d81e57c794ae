using NzbDav.Archives.Entries;
using NzbDav.Archives.Rar;
using NzbDav.Archives.Tests.Entries;

namespace NzbDav.Archives.Tests.Rar;

public sealed class Rar5ReaderTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Lists_files_and_directories_of_the_stored_archive()
    {
        using var set = VolumeSet.OpenShared("Rar5.none.rar");
        var listing = await new Rar5Reader().ReadAsync(set.Streams, null, Token);

        Assert.Equal(ArchiveFormat.Rar5, listing.Format);
        var files = listing.Entries.Where(e => !e.IsDirectory).ToDictionary(e => e.Path, e => e.Size);
        Assert.Equal(ExpectedContents.Files.ToDictionary(p => p.Key, p => p.Value.Size), files);
        var directories = listing.Entries.Where(e => e.IsDirectory).Select(e => e.Path).Order().ToArray();
        Assert.Equal(["Empty", "exe", "jpg"], directories);
        Assert.All(listing.Entries, e => Assert.NotNull(e.Modified));
    }

    [Fact]
    public async Task Every_file_reads_back_with_the_expected_sha256()
    {
        using var set = VolumeSet.OpenShared("Rar5.none.rar");
        var listing = await new Rar5Reader().ReadAsync(set.Streams, null, Token);

        foreach (var entry in listing.Entries.Where(e => !e.IsDirectory))
        {
            Assert.Equal(ExpectedContents.Files[entry.Path].Sha256, await set.Sha256Async(entry, Token));
            Assert.Null(entry.Encryption);
        }
    }

    [Fact]
    public async Task Multi_volume_entry_spans_three_volumes()
    {
        using var set = VolumeSet.OpenShared("Rar5.multi.none.part01.rar", "Rar5.multi.none.part02.rar", "Rar5.multi.none.part03.rar");
        var listing = await new Rar5Reader().ReadAsync(set.Streams, null, Token);

        var entry = Assert.Single(listing.Entries);
        Assert.Equal("stored.bin", entry.Path);
        Assert.Equal(ExpectedContents.StoredBin.Size, entry.Size);
        Assert.Equal([0, 1, 2], entry.Ranges.Select(r => r.VolumeIndex));
        Assert.Equal(ExpectedContents.StoredBin.Sha256, await set.Sha256Async(entry, Token));
    }

    [Fact]
    public async Task Missing_middle_volume_is_refused()
    {
        using var set = VolumeSet.OpenShared("Rar5.multi.none.part01.rar", "Rar5.multi.none.part03.rar");
        var error = await Assert.ThrowsAsync<ArchiveFormatException>(() => new Rar5Reader().ReadAsync(set.Streams, null, Token));
        Assert.Contains("volume 2 of the set given is volume 3", error.Message);
    }

    [Fact]
    public async Task Missing_last_volume_is_refused()
    {
        using var set = VolumeSet.OpenShared("Rar5.multi.none.part01.rar", "Rar5.multi.none.part02.rar");
        var error = await Assert.ThrowsAsync<ArchiveFormatException>(() => new Rar5Reader().ReadAsync(set.Streams, null, Token));
        Assert.Contains("missing", error.Message);
    }

    [Fact]
    public async Task Compressed_archive_is_refused_with_the_reason()
    {
        using var set = VolumeSet.OpenShared("Rar5.rar");
        var error = await Assert.ThrowsAsync<UnsupportedArchiveException>(() => new Rar5Reader().ReadAsync(set.Streams, null, Token));
        Assert.Contains("compressed", error.Message);
        Assert.Contains("cannot be streamed", error.Message);
    }

    [Theory]
    [InlineData(8)]
    [InlineData(20)]
    [InlineData(200)]
    [InlineData(101000)]
    public async Task Truncated_archive_gives_a_format_error(int length)
    {
        var bytes = File.ReadAllBytes(TestData.Archive("Rar5.none.rar"))[..length];
        using var set = VolumeSet.FromBytes(bytes);
        var error = await Record.ExceptionAsync(() => new Rar5Reader().ReadAsync(set.Streams, null, Token));
        Assert.IsType<ArchiveFormatException>(error);
    }

    [Fact]
    public async Task Flipped_header_byte_fails_the_crc_check()
    {
        var bytes = File.ReadAllBytes(TestData.Archive("Rar5.none.rar"));
        bytes[0x30] ^= 0x20;
        using var set = VolumeSet.FromBytes(bytes);
        var error = await Assert.ThrowsAsync<ArchiveFormatException>(() => new Rar5Reader().ReadAsync(set.Streams, null, Token));
        Assert.Contains("CRC32", error.Message);
    }

    [Fact]
    public async Task Wrong_signature_is_refused()
    {
        using var set = VolumeSet.OpenShared("Rar.none.rar");
        var error = await Assert.ThrowsAsync<ArchiveFormatException>(() => new Rar5Reader().ReadAsync(set.Streams, null, Token));
        Assert.Contains("signature", error.Message);
    }
}

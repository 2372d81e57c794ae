using NzbDav.Archives.Entries;
using NzbDav.Archives.SevenZip;
using NzbDav.Archives.Tests.Entries;

namespace NzbDav.Archives.Tests.SevenZip;

public sealed class SevenZipReaderTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Lists_and_reads_the_copy_archive_through_its_lzma_encoded_header()
    {
        using var set = VolumeSet.OpenShared("7Zip.Copy.7z");
        var listing = await new SevenZipReader().ReadAsync(set.Streams, null, Token);

        Assert.Equal(ArchiveFormat.SevenZip, listing.Format);
        var files = listing.Entries.Where(e => !e.IsDirectory).ToList();
        Assert.Equal(ExpectedContents.Files.Keys.Order(), files.Select(f => f.Path).Order());
        foreach (var entry in files)
        {
            Assert.Equal(ExpectedContents.Files[entry.Path].Size, entry.Size);
            Assert.Equal(ExpectedContents.Files[entry.Path].Sha256, await set.Sha256Async(entry, Token));
        }
    }

    [Theory]
    [InlineData(40000)]
    [InlineData(70001)]
    public async Task Split_archive_maps_entries_across_volumes(int cut)
    {
        var bytes = File.ReadAllBytes(TestData.Archive("7Zip.Copy.7z"));
        using var set = VolumeSet.FromBytes(bytes[..cut], bytes[cut..]);
        var listing = await new SevenZipReader().ReadAsync(set.Streams, null, Token);

        Assert.Contains(listing.Entries, e => e.Ranges.Count == 2);
        foreach (var entry in listing.Entries.Where(e => !e.IsDirectory))
        {
            Assert.Equal(ExpectedContents.Files[entry.Path].Sha256, await set.Sha256Async(entry, Token));
        }
    }

    [Theory]
    [InlineData(6)]
    [InlineData(32)]
    [InlineData(101000)]
    public async Task Truncated_archive_gives_a_format_error(int length)
    {
        var bytes = File.ReadAllBytes(TestData.Archive("7Zip.Copy.7z"))[..length];
        using var set = VolumeSet.FromBytes(bytes);
        var error = await Record.ExceptionAsync(() => new SevenZipReader().ReadAsync(set.Streams, null, Token));
        Assert.IsType<ArchiveFormatException>(error);
    }

    [Fact]
    public async Task Corrupt_encoded_header_fails_a_crc_check()
    {
        var bytes = File.ReadAllBytes(TestData.Archive("7Zip.Copy.7z"));
        bytes[^40] ^= 0x10;
        using var set = VolumeSet.FromBytes(bytes);
        var error = await Assert.ThrowsAsync<ArchiveFormatException>(() => new SevenZipReader().ReadAsync(set.Streams, null, Token));
        Assert.Contains("CRC32", error.Message);
    }
}

using NzbDav.Archives.Entries;
using NzbDav.Archives.Rar;
using NzbDav.Archives.Tests.Entries;

namespace NzbDav.Archives.Tests.Rar;

public sealed class Rar4ReaderTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Lists_files_including_the_unicode_name_and_directories()
    {
        using var set = VolumeSet.OpenShared("Rar.none.rar");
        var listing = await new Rar4Reader().ReadAsync(set.Streams, null, Token);

        Assert.Equal(ArchiveFormat.Rar4, listing.Format);
        var files = listing.Entries.Where(e => !e.IsDirectory).ToDictionary(e => e.Path, e => e.Size);
        Assert.Equal(ExpectedContents.Files.ToDictionary(p => p.Key, p => p.Value.Size), files);
        Assert.Contains(listing.Entries, e => e.Path == "тест.txt");
        var directories = listing.Entries.Where(e => e.IsDirectory).Select(e => e.Path).Order().ToArray();
        Assert.Equal(["Empty", "exe", "jpg"], directories);
    }

    [Fact]
    public async Task Every_file_reads_back_with_the_expected_sha256()
    {
        using var set = VolumeSet.OpenShared("Rar.none.rar");
        var listing = await new Rar4Reader().ReadAsync(set.Streams, null, Token);

        foreach (var entry in listing.Entries.Where(e => !e.IsDirectory))
        {
            Assert.Equal(ExpectedContents.Files[entry.Path].Sha256, await set.Sha256Async(entry, Token));
            Assert.NotNull(entry.Modified);
        }
    }

    [Theory]
    [InlineData(7)]
    [InlineData(12)]
    [InlineData(40)]
    [InlineData(2000)]
    public async Task Truncated_archive_gives_a_format_error(int length)
    {
        var bytes = File.ReadAllBytes(TestData.Archive("Rar.none.rar"))[..length];
        using var set = VolumeSet.FromBytes(bytes);
        var error = await Record.ExceptionAsync(() => new Rar4Reader().ReadAsync(set.Streams, null, Token));
        Assert.IsType<ArchiveFormatException>(error);
    }

    [Fact]
    public async Task Flipped_name_byte_fails_the_header_crc()
    {
        var bytes = File.ReadAllBytes(TestData.Archive("Rar.none.rar"));
        bytes[0x36] ^= 0x01;
        using var set = VolumeSet.FromBytes(bytes);
        var error = await Assert.ThrowsAsync<ArchiveFormatException>(() => new Rar4Reader().ReadAsync(set.Streams, null, Token));
        Assert.Contains("CRC", error.Message);
    }

    [Fact]
    public void Unicode_name_decoder_handles_all_four_opcodes()
    {
        // high byte 0x04; flags 0b01_00_10_11: Cyrillic 'т' via high byte, ASCII 'a', full char U+20AC, run of 2 from the 8-bit name.
        byte[] field = [.. "?a?xy"u8, 0, 0x04, 0b01_00_10_11, 0x42, (byte)'a', 0xAC, 0x20, 0x00];
        Assert.Equal("тa€xy", Rar4UnicodeName.Decode(field));
    }
}

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
    public async Task Corrupt_lzma_header_stream_is_refused_as_corrupt()
    {
        var bytes = File.ReadAllBytes(TestData.Archive("7Zip.Copy.7z"));
        bytes[^40] ^= 0x10;
        using var set = VolumeSet.FromBytes(bytes);
        var error = await Assert.ThrowsAsync<ArchiveFormatException>(() => new SevenZipReader().ReadAsync(set.Streams, null, Token));
        Assert.StartsWith("7z encoded header: the LZMA stream is corrupt", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Every_single_bit_flip_in_the_lzma_header_stream_is_caught_or_harmless()
    {
        // The archive ends with its 126 LZMA-packed header bytes, then the 35-byte kEncodedHeader.
        const int packedLength = 126;
        var original = File.ReadAllBytes(TestData.Archive("7Zip.Copy.7z"));
        var encodedHeaderLength = (int)System.Buffers.Binary.BinaryPrimitives.ReadInt64LittleEndian(original.AsSpan(20));
        var packedEnd = original.Length - encodedHeaderLength;
        for (var position = packedEnd - packedLength; position < packedEnd; position++)
        {
            for (var bit = 0; bit < 8; bit++)
            {
                var bytes = (byte[])original.Clone();
                bytes[position] ^= (byte)(1 << bit);
                using var set = VolumeSet.FromBytes(bytes);
                var error = await Record.ExceptionAsync(() => new SevenZipReader().ReadAsync(set.Streams, null, Token));
                Assert.True(error is null or ArchiveFormatException, $"bit {bit} of byte {position}: {error?.GetType().Name}: {error?.Message}");
            }
        }
    }
}

using System.Buffers.Binary;
using System.IO.Hashing;
using System.Text;
using NzbDav.Archives.Entries;
using NzbDav.Archives.SevenZip;
using NzbDav.Archives.Tests.Entries;

namespace NzbDav.Archives.Tests.SevenZip;

/// <summary>Tiny 7z archives with a plain (not encoded) header, assembled byte by byte from 7zFormat.txt.</summary>
public sealed class SevenZipHandMadeTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Copy_folder_with_a_plain_header_maps_file_and_directory()
    {
        var data = Encoding.ASCII.GetBytes("hello, stored seven zip world! 0123456789");
        using var set = VolumeSet.FromBytes(Build(data, [0x01, 0x00], "a.mkv"));
        var listing = await new SevenZipReader().ReadAsync(set.Streams, null, Token);

        Assert.Equal(["a.mkv", "d"], listing.Entries.Select(e => e.Path));
        Assert.True(listing.Entries[1].IsDirectory);
        Assert.Equal(data, await set.ReadAllAsync(listing.Entries[0], Token));
    }

    [Fact]
    public async Task Compressed_folder_is_refused_naming_entry_and_coder()
    {
        using var set = VolumeSet.FromBytes(Build(new byte[50], [0x23, 0x03, 0x01, 0x01, 0x05, 0x5D, 0x00, 0x00, 0x10, 0x00], "movie.mkv"));
        var error = await Assert.ThrowsAsync<UnsupportedArchiveException>(() => new SevenZipReader().ReadAsync(set.Streams, null, Token));
        Assert.Equal("7z entry 'movie.mkv' is compressed (LZMA (030101)); only Copy (stored) entries can be streamed", error.Message);
    }

    [Fact]
    public async Task Traversal_name_is_refused()
    {
        using var set = VolumeSet.FromBytes(Build(new byte[5], [0x01, 0x00], "../../etc/passwd"));
        var error = await Assert.ThrowsAsync<ArchiveFormatException>(() => new SevenZipReader().ReadAsync(set.Streams, null, Token));
        Assert.Contains("refused", error.Message);
    }

    [Fact]
    public async Task Header_cut_inside_a_field_gives_a_format_error()
    {
        var bytes = Build(new byte[5], [0x01, 0x00], "a");
        var headerSize = (int)BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(20));
        var header = bytes.AsSpan(bytes.Length - headerSize);
        header[4] = 0x7F; // pack stream count far beyond the bytes that follow
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(28), Crc32.HashToUInt32(header));
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(8), Crc32.HashToUInt32(bytes.AsSpan(12, 20)));
        using var set = VolumeSet.FromBytes(bytes);
        var error = await Record.ExceptionAsync(() => new SevenZipReader().ReadAsync(set.Streams, null, Token));
        Assert.IsType<ArchiveFormatException>(error);
    }

    private static byte[] Build(byte[] data, byte[] folder, string fileName)
    {
        var header = new List<byte> { 0x01, 0x04, 0x06, 0x00, 0x01, 0x09, (byte)data.Length, 0x00, 0x07, 0x0B, 0x01, 0x00, 0x01 };
        header.AddRange(folder);
        header.AddRange([0x0C, (byte)data.Length, 0x00, 0x00]);
        var names = new List<byte> { 0x00 };
        names.AddRange(Encoding.Unicode.GetBytes(fileName + "\0d\0"));
        header.AddRange([0x05, 0x02, 0x0E, 0x01, 0x40, 0x11, (byte)names.Count]);
        header.AddRange(names);
        header.AddRange([0x00, 0x00]);

        var archive = new byte[32 + data.Length + header.Count];
        new byte[] { 0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C }.CopyTo(archive, 0);
        archive[7] = 4;
        BinaryPrimitives.WriteInt64LittleEndian(archive.AsSpan(12), data.Length);
        BinaryPrimitives.WriteInt64LittleEndian(archive.AsSpan(20), header.Count);
        BinaryPrimitives.WriteUInt32LittleEndian(archive.AsSpan(28), Crc32.HashToUInt32([.. header]));
        BinaryPrimitives.WriteUInt32LittleEndian(archive.AsSpan(8), Crc32.HashToUInt32(archive.AsSpan(12, 20)));
        data.CopyTo(archive, 32);
        header.CopyTo(archive, 32 + data.Length);
        return archive;
    }
}

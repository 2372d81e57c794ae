using NzbDav.Archives.Entries;
using NzbDav.Archives.Rar;
using NzbDav.Archives.Tests.Entries;

namespace NzbDav.Archives.Tests.Rar;

/// <summary>
/// Multi-volume sets are listed from the first bytes of every volume but the last: over Usenet the
/// first article is already at hand and any other read is a round trip per volume.
/// </summary>
public sealed class SplitVolumeTests
{
    private const int FirstBytes = 1024;

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    private static readonly TestFile Video = TestFile.Random("video.mkv", 50_000, 11);

    [Fact]
    public async Task Rar5_split_volumes_are_listed_from_their_first_bytes()
    {
        var volumes = new Rar5TestWriter { DataBytesPerVolume = 5000 }.Write(Video);
        Assert.Equal(10, volumes.Length);

        var listing = await new Rar5Reader().ReadAsync(PrefixOnly(volumes), null, Token);

        await AssertVideoAsync(listing, volumes);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(0x0002 | 0x0008)]
    [InlineData(0x0002 | 0x0004 | 0x0008)]
    public async Task Rar4_split_volumes_are_listed_from_their_first_bytes(ushort endFlags)
    {
        var volumes = new Rar4TestWriter { DataBytesPerVolume = 5000, EndFlags = endFlags }.Write(Video);
        Assert.Equal(10, volumes.Length);

        var listing = await new Rar4Reader().ReadAsync(PrefixOnly(volumes), null, Token);

        await AssertVideoAsync(listing, volumes);
    }

    [Fact]
    public async Task Rar4_set_with_a_file_after_a_split_one_reads_that_volume_on()
    {
        var small = TestFile.Random("sample.mkv", 700, 12);
        var volumes = new Rar4TestWriter { DataBytesPerVolume = 5000, EndFlags = 0x0002 | 0x0008 }.Write(Video, small);

        using var set = VolumeSet.FromBytes(volumes);
        var listing = await new Rar4Reader().ReadAsync(set.Streams, null, Token);

        Assert.Equal(["video.mkv", "sample.mkv"], listing.Entries.Select(e => e.Path));
        Assert.Equal(small.Data, await set.ReadAllAsync(listing.Entries[1], Token));
    }

    [Fact]
    public async Task Rar5_volumes_out_of_order_are_refused_by_their_volume_numbers()
    {
        var volumes = new Rar5TestWriter { DataBytesPerVolume = 5000 }.Write(Video);
        (volumes[2], volumes[3]) = (volumes[3], volumes[2]);

        using var set = VolumeSet.FromBytes(volumes);
        var error = await Assert.ThrowsAsync<ArchiveFormatException>(() => new Rar5Reader().ReadAsync(set.Streams, null, Token));

        Assert.Contains("volume 3 of the set given is volume 4", error.Message);
    }

    private static Stream[] PrefixOnly(byte[][] volumes) =>
        [.. volumes.Select((bytes, i) => i < volumes.Length - 1 ? new PrefixOnlyStream(bytes, FirstBytes) : (Stream)new MemoryStream(bytes))];

    private static async Task AssertVideoAsync(ArchiveListing listing, byte[][] volumes)
    {
        var entry = Assert.Single(listing.Entries);
        Assert.Equal("video.mkv", entry.Path);
        Assert.Equal(volumes.Length, entry.Ranges.Count);
        using var set = VolumeSet.FromBytes(volumes);
        Assert.Equal(Video.Data, await set.ReadAllAsync(entry, Token));
    }
}

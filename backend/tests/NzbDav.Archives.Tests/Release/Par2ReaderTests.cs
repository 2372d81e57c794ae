using System.Text;
using NzbDav.Archives.Release;
using static NzbDav.Archives.Tests.Release.Par2TestWriter;

namespace NzbDav.Archives.Tests.Release;

public sealed class Par2ReaderTests
{
    private static readonly Hash16 Set = Id(1000);

    public enum Source { Bytes, Seekable, ForwardOnly }

    private static async Task<Par2ReadResult> ReadAsync(byte[] data, Source source)
    {
        var ct = TestContext.Current.CancellationToken;
        return source switch
        {
            Source.Bytes => Par2Reader.Read(data),
            Source.Seekable => await Par2Reader.ReadAsync(new MemoryStream(data, writable: false), ct),
            _ => await Par2Reader.ReadAsync(new ForwardOnlyStream(data, 5003), ct),
        };
    }

    private static byte[] Content(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }

    [Theory]
    [InlineData(Source.Bytes)]
    [InlineData(Source.Seekable)]
    [InlineData(Source.ForwardOnly)]
    public async Task Reads_descriptions_main_and_skips_recovery_slices(Source source)
    {
        var big = Content(40_000, 1);
        var small = Content(100, 2);
        var data = Concat(
            MainPacket(Set, 4096, Id(1), Id(2)),
            RecoverySlice(Set, 300_000),
            FileDescription(Set, Id(1), big, "Movie.2020.1080p.mkv"),
            FileDescription(Set, Id(2), small, "Movie.2020.1080p.nfo"),
            RecoverySlice(Set, 4096),
            FileDescription(Set, Id(1), big, "Movie.2020.1080p.mkv"));

        var result = await ReadAsync(data, source);

        Assert.Equal(2, result.Files.Count);
        var file = result.Files[0];
        Assert.Equal("Movie.2020.1080p.mkv", file.Name);
        Assert.Equal(40_000, file.Length);
        Assert.Equal(Hash16.Md5Of(big.AsSpan(0, 16384)), file.First16KMd5);
        Assert.Equal(Hash16.Md5Of(big), file.FileMd5);
        Assert.Equal(Hash16.Md5Of(small), result.Files[1].First16KMd5);
        Assert.Equal(Set, file.RecoverySetId);
        var main = Assert.Single(result.MainPackets);
        Assert.Equal(4096, main.SliceSize);
        Assert.Equal([Id(1), Id(2)], main.RecoveryFileIds);
        Assert.Empty(main.NonRecoveryFileIds);
        Assert.Equal(2, result.SkippedPackets);
        Assert.Equal(4, result.ValidPackets);
        Assert.Equal(0, result.CorruptPackets);
        Assert.False(result.Truncated);
    }

    [Theory]
    [InlineData(Source.Bytes)]
    [InlineData(Source.Seekable)]
    [InlineData(Source.ForwardOnly)]
    public async Task Resyncs_over_garbage_and_corrupt_packets(Source source)
    {
        var corrupt = FileDescription(Set, Id(3), Content(10, 3), "bad.mkv");
        corrupt[^1] ^= 0xFF;
        var badLength = FileDescription(Set, Id(4), Content(10, 4), "odd.mkv");
        badLength[8] = 0x41;
        var data = Concat(
            Encoding.ASCII.GetBytes("garbage PAR2\0PK not a packet"),
            corrupt,
            Content(777, 5),
            badLength,
            FileDescription(Set, Id(1), Content(10, 1), "good.mkv"),
            [0x50, 0x41]);

        var result = await ReadAsync(data, source);

        Assert.Equal("good.mkv", Assert.Single(result.Files).Name);
        Assert.Equal(2, result.CorruptPackets);
        Assert.True(result.GarbageBytes > 777);
    }

    [Theory]
    [InlineData(Source.Bytes)]
    [InlineData(Source.Seekable)]
    [InlineData(Source.ForwardOnly)]
    public async Task Truncated_data_keeps_whole_packets_and_says_so(Source source)
    {
        var data = Concat(
            FileDescription(Set, Id(1), Content(10, 1), "first.mkv"),
            RecoverySlice(Set, 50_000));
        var cut = data[..^1000];

        var result = await ReadAsync(cut, source);

        Assert.Equal("first.mkv", Assert.Single(result.Files).Name);
        Assert.True(result.Truncated);
    }

    [Fact]
    public void Cut_inside_a_description_is_truncated_not_lost_silently()
    {
        var data = Concat(
            FileDescription(Set, Id(1), Content(10, 1), "first.mkv"),
            FileDescription(Set, Id(2), Content(10, 2), "second.mkv"));

        var result = Par2Reader.Read(data.AsSpan(0, data.Length - 3));

        Assert.Equal("first.mkv", Assert.Single(result.Files).Name);
        Assert.True(result.Truncated);
    }

    [Fact]
    public void Unicode_name_packet_wins_and_non_utf8_names_fall_back_to_latin1()
    {
        var latin1 = Encoding.Latin1.GetBytes("Caf\u00e9.mkv");
        var data = Concat(
            FileDescription(Set, Id(1), Content(10, 1), "ascii?.mkv"),
            UnicodeName(Set, Id(1), "\u65e5\u672c.mkv"),
            FileDescription(Set, Id(2), Hash16.Md5Of([1]), Hash16.Md5Of([1]), 1, latin1));

        var result = Par2Reader.Read(data);

        Assert.Equal("\u65e5\u672c.mkv", result.Files[0].Name);
        Assert.Equal("Caf\u00e9.mkv", result.Files[1].Name);
    }

    [Fact]
    public void Inconsistent_main_body_is_counted_corrupt()
    {
        var main = MainPacket(Set, 4096, Id(1));
        var body = main.AsSpan(64);
        body[8] = 9; // claims 9 recovery files, lists one
        Hash16.Md5Of(main.AsSpan(32)).WriteTo(main.AsSpan(16));

        var result = Par2Reader.Read(Concat(main, FileDescription(Set, Id(1), Content(5, 1), "a.mkv")));

        Assert.Empty(result.MainPackets);
        Assert.Equal(1, result.CorruptPackets);
    }

    [Fact]
    public async Task Data_without_packets_is_a_typed_error()
    {
        var error = Assert.Throws<ArchiveFormatException>(() => Par2Reader.Read(Content(5000, 9)));
        Assert.Contains("no packet magic", error.Message);
        var corrupt = FileDescription(Set, Id(1), Content(10, 1), "x.mkv");
        corrupt[70] ^= 1;
        await Assert.ThrowsAsync<ArchiveFormatException>(() => Par2Reader.ReadAsync(
            new ForwardOnlyStream(corrupt, 10), TestContext.Current.CancellationToken));
    }

    [Fact]
    public void Quick_hash_refuses_too_few_bytes_and_hashes_short_files_whole()
    {
        var data = Content(20_000, 1);
        Assert.Equal(Hash16.Md5Of(data.AsSpan(0, 16384)), Par2Hashes.First16KMd5(data, 1_000_000));
        Assert.Equal(Hash16.Md5Of(data.AsSpan(0, 300)), Par2Hashes.First16KMd5(data.AsSpan(0, 300), 300));
        Assert.Throws<ArgumentException>(() => Par2Hashes.First16KMd5(data.AsSpan(0, 300), 1_000_000));
    }

    [Fact]
    public void Hash16_round_trips_hex()
    {
        var hash = Hash16.Parse("92B5DD2F39BA4A886889397DBB863541");
        Assert.Equal("92b5dd2f39ba4a886889397dbb863541", hash.ToString());
        Assert.Throws<FormatException>(() => Hash16.Parse("abc"));
    }
}

using NzbDav.Archives.Release;

namespace NzbDav.Archives.Tests.Release;

public sealed class ReleaseFileClassifierTests
{
    private static byte[] Head(params byte[] start)
    {
        var head = new byte[1024];
        new Random(7).NextBytes(head);
        head[0] = 0; // keep random filler from looking like any magic
        start.CopyTo(head, 0);
        return head;
    }

    public static TheoryData<byte[], string?, ReleaseFileKind> Cases()
    {
        var ts = Head();
        ts[0] = ts[188] = ts[376] = 0x47;
        var m2ts = Head();
        m2ts[4] = m2ts[196] = m2ts[388] = 0x47;
        return new TheoryData<byte[], string?, ReleaseFileKind>
        {
            { Head("Rar!\x1A\x07\x00"u8.ToArray()), "x.bin", ReleaseFileKind.Rar4 },
            { Head("Rar!\x1A\x07\x01\x00"u8.ToArray()), "abc", ReleaseFileKind.Rar5 },
            { Head([(byte)'7', (byte)'z', 0xBC, 0xAF, 0x27, 0x1C]), null, ReleaseFileKind.SevenZip },
            { Head("PAR2\0PKT"u8.ToArray()), "random", ReleaseFileKind.Par2 },
            { Head(0x1A, 0x45, 0xDF, 0xA3), "file.avi", ReleaseFileKind.Matroska },
            { Head(0, 0, 0, 0x20, (byte)'f', (byte)'t', (byte)'y', (byte)'p'), null, ReleaseFileKind.Mp4 },
            { Head([.. "RIFF"u8, 0x10, 0, 0, 0, .. "AVI LIST"u8]), null, ReleaseFileKind.Avi },
            { ts, null, ReleaseFileKind.MpegTs },
            { m2ts, null, ReleaseFileKind.MpegTs },
            { Head(), "movie.part02.rar", ReleaseFileKind.Rar },
            { Head(), "movie.r07", ReleaseFileKind.Rar },
            { Head(), "movie.7z.002", ReleaseFileKind.SevenZip },
            { Head(), "movie.mkv.002", ReleaseFileKind.SplitPart },
            { Head(), "Movie.English.SRT", ReleaseFileKind.Subtitle },
            { Head(), "movie.nfo", ReleaseFileKind.Nfo },
            { Head(), "c8f2a9d1e7b3", ReleaseFileKind.Unknown },
            { Head(0x47), null, ReleaseFileKind.Unknown },
            { [], null, ReleaseFileKind.Unknown },
        };
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void Magic_first_then_extension(byte[] head, string? name, ReleaseFileKind expected) =>
        Assert.Equal(expected, ReleaseFileClassifier.Classify(head, name));
}

using System.Collections.Frozen;
using System.Text.RegularExpressions;

namespace NzbDav.Archives.Release;

/// <summary>Classifies release files by magic bytes first (names lie in obfuscated posts), extension second.</summary>
public static partial class ReleaseFileClassifier
{
    private const int TsPacket = 188;
    private const int M2tsPacket = 192;

    private static readonly FrozenDictionary<string, ReleaseFileKind> ByExtension = new Dictionary<string, ReleaseFileKind>
    {
        ["rar"] = ReleaseFileKind.Rar, ["7z"] = ReleaseFileKind.SevenZip, ["par2"] = ReleaseFileKind.Par2,
        ["mkv"] = ReleaseFileKind.Matroska, ["webm"] = ReleaseFileKind.Matroska, ["mk3d"] = ReleaseFileKind.Matroska,
        ["mp4"] = ReleaseFileKind.Mp4, ["m4v"] = ReleaseFileKind.Mp4, ["mov"] = ReleaseFileKind.Mp4,
        ["avi"] = ReleaseFileKind.Avi, ["ts"] = ReleaseFileKind.MpegTs, ["m2ts"] = ReleaseFileKind.MpegTs,
        ["mts"] = ReleaseFileKind.MpegTs, ["wmv"] = ReleaseFileKind.OtherVideo, ["mpg"] = ReleaseFileKind.OtherVideo,
        ["mpeg"] = ReleaseFileKind.OtherVideo, ["vob"] = ReleaseFileKind.OtherVideo, ["flv"] = ReleaseFileKind.OtherVideo,
        ["ogm"] = ReleaseFileKind.OtherVideo, ["iso"] = ReleaseFileKind.OtherVideo,
        ["srt"] = ReleaseFileKind.Subtitle, ["sub"] = ReleaseFileKind.Subtitle, ["idx"] = ReleaseFileKind.Subtitle,
        ["ass"] = ReleaseFileKind.Subtitle, ["ssa"] = ReleaseFileKind.Subtitle, ["sup"] = ReleaseFileKind.Subtitle,
        ["vtt"] = ReleaseFileKind.Subtitle,
        ["mp3"] = ReleaseFileKind.Audio, ["flac"] = ReleaseFileKind.Audio, ["m4a"] = ReleaseFileKind.Audio,
        ["aac"] = ReleaseFileKind.Audio, ["ogg"] = ReleaseFileKind.Audio, ["opus"] = ReleaseFileKind.Audio,
        ["wav"] = ReleaseFileKind.Audio, ["mka"] = ReleaseFileKind.Audio, ["ac3"] = ReleaseFileKind.Audio,
        ["dts"] = ReleaseFileKind.Audio,
        ["jpg"] = ReleaseFileKind.Image, ["jpeg"] = ReleaseFileKind.Image, ["png"] = ReleaseFileKind.Image,
        ["gif"] = ReleaseFileKind.Image, ["webp"] = ReleaseFileKind.Image,
        ["nfo"] = ReleaseFileKind.Nfo, ["sfv"] = ReleaseFileKind.Checksum, ["md5"] = ReleaseFileKind.Checksum,
        ["txt"] = ReleaseFileKind.Text,
    }.ToFrozenDictionary(StringComparer.OrdinalIgnoreCase);

    /// <summary>
    /// Kind of a file from its first bytes (<paramref name="head"/>; 1 KiB is plenty) and, failing that, its name.
    /// </summary>
    public static ReleaseFileKind Classify(ReadOnlySpan<byte> head, string? name)
    {
        var byMagic = ClassifyMagic(head);
        return byMagic != ReleaseFileKind.Unknown ? byMagic : ClassifyName(name);
    }

    /// <summary>Kind from the magic bytes alone.</summary>
    public static ReleaseFileKind ClassifyMagic(ReadOnlySpan<byte> head)
    {
        if (head.StartsWith("Rar!\x1A\x07\x01\x00"u8))
        {
            return ReleaseFileKind.Rar5;
        }

        if (head.StartsWith("Rar!\x1A\x07\x00"u8))
        {
            return ReleaseFileKind.Rar4;
        }

        if (head.StartsWith((ReadOnlySpan<byte>)[(byte)'7', (byte)'z', 0xBC, 0xAF, 0x27, 0x1C]))
        {
            return ReleaseFileKind.SevenZip;
        }

        if (head.StartsWith("PAR2\0PKT"u8))
        {
            return ReleaseFileKind.Par2;
        }

        if (head.StartsWith((ReadOnlySpan<byte>)[0x1A, 0x45, 0xDF, 0xA3]))
        {
            return ReleaseFileKind.Matroska;
        }

        if (head.Length >= 8 && head.Slice(4, 4).SequenceEqual("ftyp"u8))
        {
            return ReleaseFileKind.Mp4;
        }

        if (head.Length >= 12 && head.StartsWith("RIFF"u8) && head.Slice(8, 4).SequenceEqual("AVI "u8))
        {
            return ReleaseFileKind.Avi;
        }

        return HasSyncEvery(head, 0, TsPacket) || HasSyncEvery(head, 4, M2tsPacket)
            ? ReleaseFileKind.MpegTs
            : ReleaseFileKind.Unknown;
    }

    /// <summary>Kind from the name alone, volume suffixes (<c>.r00</c>, <c>.7z.001</c>, <c>.001</c>) included.</summary>
    public static ReleaseFileKind ClassifyName(string? name)
    {
        if (string.IsNullOrEmpty(name))
        {
            return ReleaseFileKind.Unknown;
        }

        if (SevenZipVolume().IsMatch(name))
        {
            return ReleaseFileKind.SevenZip;
        }

        if (OldRarVolume().IsMatch(name))
        {
            return ReleaseFileKind.Rar;
        }

        if (SplitVolume().IsMatch(name))
        {
            return ReleaseFileKind.SplitPart;
        }

        var dot = name.LastIndexOf('.');
        return dot >= 0 && ByExtension.TryGetValue(name[(dot + 1)..], out var kind) ? kind : ReleaseFileKind.Unknown;
    }

    /// <summary>True for kinds a player can play directly.</summary>
    public static bool IsVideo(ReleaseFileKind kind) => kind is ReleaseFileKind.Matroska or ReleaseFileKind.Mp4
        or ReleaseFileKind.Avi or ReleaseFileKind.MpegTs or ReleaseFileKind.OtherVideo;

    /// <summary>The usual extension for a kind recognised by magic bytes, without the dot; null when there is none.</summary>
    public static string? CanonicalExtension(ReleaseFileKind kind) => kind switch
    {
        ReleaseFileKind.Rar4 or ReleaseFileKind.Rar5 or ReleaseFileKind.Rar => "rar",
        ReleaseFileKind.SevenZip => "7z",
        ReleaseFileKind.Par2 => "par2",
        ReleaseFileKind.Matroska => "mkv",
        ReleaseFileKind.Mp4 => "mp4",
        ReleaseFileKind.Avi => "avi",
        ReleaseFileKind.MpegTs => "ts",
        _ => null,
    };

    /// <summary>True when <paramref name="name"/> ends with an extension this classifier knows.</summary>
    public static bool HasKnownExtension(string name) => ClassifyName(name) != ReleaseFileKind.Unknown;

    // Three sync bytes in a row: one 0x47 is common in any binary data, three at exact strides are not.
    private static bool HasSyncEvery(ReadOnlySpan<byte> head, int first, int stride) =>
        head.Length > first + 2 * stride &&
        head[first] == 0x47 && head[first + stride] == 0x47 && head[first + 2 * stride] == 0x47;

    [GeneratedRegex(@"\.7z\.\d{3,}$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex SevenZipVolume();

    [GeneratedRegex(@"\.[r-z]\d{2,3}$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex OldRarVolume();

    [GeneratedRegex(@"\.\d{3,}$", RegexOptions.CultureInvariant)]
    private static partial Regex SplitVolume();
}

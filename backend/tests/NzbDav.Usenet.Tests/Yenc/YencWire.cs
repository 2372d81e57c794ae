using System.Text;
using NzbDav.MockNntp.Yenc;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Yenc;

/// <summary>Builds NNTP article bodies for the decoder tests.</summary>
internal static class YencWire
{
    public static readonly byte[] Terminator = ".\r\n"u8.ToArray();

    /// <summary>Every kernel this CPU can run, by name (test signatures are public, the kernel enum is not).</summary>
    public static IEnumerable<string> Kernels
        => Enum.GetValues<YencKernel>().Where(YencDecoder.IsSupported).Select(k => k.ToString());

    public static TheoryData<string> KernelData() => new(Kernels);

    public static YencDecoder Decoder(string kernel) => new(Enum.Parse<YencKernel>(kernel));

    public static byte[] RandomData(int length, int seed)
    {
        var data = new byte[length];
        new Random(seed).NextBytes(data);
        return data;
    }

    /// <summary>Data dense in the bytes that encode to '=', CR, LF, NUL, TAB, SPACE, '.' and 'y'.</summary>
    public static byte[] NastyData(int length, int seed)
    {
        byte[] awkward = [214, 224, 227, 19, 4, 223, 246, 79, 3, 0, 255];
        var rng = new Random(seed);
        var data = new byte[length];
        for (var i = 0; i < length; i++)
        {
            data[i] = rng.Next(3) == 0 ? (byte)rng.Next(256) : awkward[rng.Next(awkward.Length)];
        }
        return data;
    }

    /// <summary>
    /// An encoded article on the wire: encoder output plus the ".\r\n" terminator. Without the
    /// encoder's own dot-stuffing the lines are stuffed here, as a server sends a post that was not.
    /// </summary>
    public static byte[] Article(ReadOnlySpan<byte> data, YencPartSpec spec, int lineLength = 128, bool dotStuff = true)
    {
        var options = new YencEncoderOptions { LineLength = lineLength, DotStuff = dotStuff };
        var encoded = YencEncoder.Encode(data, spec, options);
        return [.. dotStuff ? encoded : StuffLikeAServer(encoded), .. Terminator];
    }

    /// <summary>RFC 3977: every line that starts with '.' gets one more in front.</summary>
    public static byte[] StuffLikeAServer(ReadOnlySpan<byte> lines)
    {
        var stuffed = new List<byte>(lines.Length + 64);
        var lineStart = true;
        foreach (var b in lines)
        {
            if (lineStart && b == (byte)'.')
            {
                stuffed.Add((byte)'.');
            }
            stuffed.Add(b);
            lineStart = b == (byte)'\n';
        }
        return [.. stuffed];
    }

    public static YencPartSpec SinglePart(int length, string name = "file.bin")
        => new(name, length, null, null, 0);

    public static YencPartSpec MultiPart(int length, long begin = 1000, int part = 2, string name = "file.bin")
        => new(name, begin + length + 500, part, 9, begin);

    public static byte[] Ascii(string text) => Encoding.Latin1.GetBytes(text);

    /// <summary>A wire body from text lines: each is followed by CRLF, then the terminator.</summary>
    public static byte[] Lines(params string[] lines)
        => Ascii(string.Concat(lines.Select(l => l + "\r\n")) + ".\r\n");

    /// <summary>What yEnc decoding of <paramref name="encoded"/> yields, for hand-written expectations.</summary>
    public static byte[] Minus42(string encoded) => [.. Ascii(encoded).Select(b => unchecked((byte)(b - 42)))];
}

using System.Text;

namespace NzbDav.Usenet.Tests.Yenc;

/// <summary>
/// Seeded generator of hostile-but-plausible article bodies: bare LF and CRLF endings, stray CRs,
/// escapes of any byte (including at line ends and chunk-sized stretches of them), dot-stuffed and
/// unstuffed leading dots, "=y" in mid-line, text around the yEnc block, and sometimes a keyword
/// line the decoder must reject. Articles end in ".\r\n", optionally followed by another response.
/// </summary>
internal static class YencFuzzArticles
{
    // Bytes that make decoding branch, weighted towards "=" and CR: NUL, TAB, CR, SPACE, ".", "=", "y".
    // (LF only ever appears escaped or as a line end.)
    private static readonly byte[] Awkward = [0, 9, 13, 32, 46, 61, 121, 61, 61, 13];

    public static byte[] Create(int seed)
    {
        var rng = new Random(seed);
        var body = new List<byte>();
        for (var i = rng.Next(3); i > 0; i--)
        {
            AddLine(body, rng, TextLine(rng));
        }
        var multipart = rng.Next(2) == 0;
        var begin = multipart ? "=ybegin part=2 total=5 line=128 size=90000 name=fuzz file.bin" : "=ybegin line=128 size=90000 name=fuzz.bin";
        AddLine(body, rng, Encoding.ASCII.GetBytes(rng.Next(40) == 0 ? begin.Replace("size=", "size=x", StringComparison.Ordinal) : begin));
        if (multipart)
        {
            AddLine(body, rng, "=ypart begin=1001 end=2000"u8.ToArray());
        }
        var lines = rng.Next(4) == 0 ? rng.Next(200, 800) : rng.Next(0, 40);
        for (var i = 0; i < lines; i++)
        {
            AddLine(body, rng, DataLine(rng));
        }
        if (rng.Next(10) != 0)
        {
            AddLine(body, rng, Encoding.ASCII.GetBytes(multipart ? "=yend size=1000 part=2 pcrc32=1a2b3c4d" : "=yend size=9 crc32=ABCDEF01"));
        }
        for (var i = rng.Next(3); i > 0; i--)
        {
            AddLine(body, rng, rng.Next(2) == 0 ? TextLine(rng) : "=yend junk"u8.ToArray());
        }
        body.AddRange(".\r\n"u8.ToArray());
        if (rng.Next(3) == 0)
        {
            body.AddRange("222 0 <next@x> body\r\n=ybegin line=1 size=1 name=n\r\n"u8.ToArray());
        }
        return [.. body];
    }

    private static byte[] DataLine(Random rng)
    {
        var line = new List<byte>();
        var length = rng.Next(8) == 0 ? rng.Next(0, 4) : rng.Next(1, 300);
        var awkwardRate = rng.Next(1, 6);
        for (var i = 0; i < length; i++)
        {
            var roll = rng.Next(20);
            if (roll < awkwardRate)
            {
                line.Add(Awkward[rng.Next(Awkward.Length)]);
            }
            else if (roll == awkwardRate)
            {
                line.Add((byte)'=');
                line.Add((byte)rng.Next(256) is var escaped && escaped != (byte)'\n' ? escaped : (byte)'J');
            }
            else
            {
                var b = (byte)rng.Next(256);
                line.Add(b == (byte)'\n' ? (byte)'k' : b);
            }
        }
        switch (rng.Next(30))
        {
            case 0: line.InsertRange(0, "."u8.ToArray()); break;          // dot-stuffed (becomes "..")
            case 1: line.InsertRange(0, ".\r"u8.ToArray()); break;
            case 2: line.InsertRange(0, rng.Next(400) == 0 ? "=y"u8.ToArray() : "=Y"u8.ToArray()); break; // "=y": rejected keyword line
            case 3: line.InsertRange(0, "=x"u8.ToArray()); break;
            case 4: line.Add((byte)'='); break;                            // '=' just before the line end
            case 5: line.Clear(); line.Add((byte)'.'); break;             // data "." (wire ".."); unstuffed, an early terminator
        }
        return [.. line];
    }

    private static byte[] TextLine(Random rng)
    {
        string[] texts = ["hello", ".starts with a dot", "=yfoo not a header", "=x", "", "  spaced  ", "=y"];
        return Encoding.ASCII.GetBytes(texts[rng.Next(texts.Length)]);
    }

    private static void AddLine(List<byte> body, Random rng, byte[] line)
    {
        // The wire dot-stuffs every line that starts with '.', so a "." data line arrives as "..".
        if (line.Length > 0 && line[0] == (byte)'.' && rng.Next(8) != 0)
        {
            body.Add((byte)'.');
        }
        body.AddRange(line);
        body.AddRange(rng.Next(6) == 0 ? "\n"u8.ToArray() : "\r\n"u8.ToArray());
    }
}

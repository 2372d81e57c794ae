using NzbDav.MockNntp.Yenc;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Yenc;

/// <summary>Encoder → wire → decoder round trips for every kernel.</summary>
public sealed class YencRoundTripTests
{
    private static readonly int[] LineLengths = [2, 3, 5, 16, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200, 255, 256];
    private static readonly int[] SmallSizes = [0, 1, 2, 3, 100, 4097];

    public static TheoryData<string, int, int, bool> SmallCases()
    {
        var cases = new TheoryData<string, int, int, bool>();
        foreach (var kernel in YencWire.Kernels)
        {
            foreach (var line in LineLengths)
            {
                foreach (var size in SmallSizes)
                {
                    cases.Add(kernel, line, size, (line + size) % 2 == 0);
                }
            }
        }
        return cases;
    }

    public static TheoryData<string, int, int> LargeCases()
    {
        var cases = new TheoryData<string, int, int>();
        foreach (var kernel in YencWire.Kernels)
        {
            cases.Add(kernel, 128, 750_000);
            cases.Add(kernel, 256, 800_000);
            cases.Add(kernel, 2, 65_543);
            cases.Add(kernel, 33, 300_001);
        }
        return cases;
    }

    [Theory]
    [MemberData(nameof(SmallCases))]
    public void Small_articles_round_trip(string kernel, int lineLength, int size, bool nasty)
    {
        var seed = (lineLength * 7919) + size;
        var data = nasty ? YencWire.NastyData(size, seed) : YencWire.RandomData(size, seed);
        foreach (var dotStuff in new[] { true, false })
        {
            AssertRoundTrip(kernel, data, YencWire.SinglePart(size, "small file.bin"), lineLength, dotStuff, seed);
            if (size > 0)
            {
                AssertRoundTrip(kernel, data, YencWire.MultiPart(size, begin: 12_345, part: 3), lineLength, dotStuff, seed);
            }
        }
    }

    [Theory]
    [MemberData(nameof(LargeCases))]
    public void Large_articles_round_trip(string kernel, int lineLength, int size)
    {
        var data = YencWire.RandomData(size, size);
        AssertRoundTrip(kernel, data, YencWire.MultiPart(size, begin: 750_000L * 41, part: 42), lineLength, dotStuff: true, size);
        var nasty = YencWire.NastyData(size, size + 1);
        AssertRoundTrip(kernel, nasty, YencWire.SinglePart(size), lineLength, dotStuff: true, size);
    }

    private static void AssertRoundTrip(string kernel, byte[] data, YencPartSpec spec, int lineLength, bool dotStuff, int seed)
    {
        var wire = YencWire.Article(data, spec, lineLength, dotStuff);

        var decoder = YencWire.Decoder(kernel);
        var whole = YencDriver.Whole(decoder, wire);
        AssertDecoded(decoder, whole, data, spec, lineLength, wire.Length);

        decoder.Reset();
        var chunked = YencDriver.Chunked(
            decoder, wire, YencDriver.RandomSizes(seed, 70_000), YencDriver.RandomSizes(seed + 1, 70_000));
        AssertDecoded(decoder, chunked, data, spec, lineLength, wire.Length);
    }

    private static void AssertDecoded(YencDecoder decoder, YencDriver.Result result, byte[] data, YencPartSpec spec, int lineLength, int wireLength)
    {
        Assert.True(result.Completed);
        Assert.Equal(wireLength, result.Consumed);
        Assert.Equal(1, result.HeaderParsedCount);
        Assert.Equal(data, result.Data);

        var header = Assert.IsType<YencHeader>(decoder.Header);
        Assert.Equal(spec.FileName, header.FileName);
        Assert.Equal(spec.FileSize, header.FileSize);
        Assert.Equal(lineLength, header.LineLength);
        Assert.Equal(spec.Part, header.Part);
        Assert.Equal(spec.TotalParts, header.TotalParts);
        Assert.Equal(spec.PartBegin, header.PartBegin);
        Assert.Equal(data.Length, header.PartSize);

        var trailer = decoder.EnsureValid();
        Assert.Same(decoder.Trailer, trailer);
        Assert.Equal(data.Length, trailer.Size);
        Assert.Equal(spec.Part, trailer.Part);
        Assert.Equal(System.IO.Hashing.Crc32.HashToUInt32(data), trailer.PartCrc32);
        Assert.Equal(System.IO.Hashing.Crc32.HashToUInt32(data), decoder.Crc32);
    }
}

using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Yenc;

/// <summary>Every kernel, fed in every way, must agree with the reference decoder on fuzzed input.</summary>
public sealed class YencEquivalenceTests
{
    private const int Articles = 400;
    private const int SplitEverywhereMaxLength = 700;

    public static TheoryData<string, int> Batches()
    {
        var cases = new TheoryData<string, int>();
        foreach (var kernel in YencWire.Kernels)
        {
            for (var batch = 0; batch < 8; batch++)
            {
                cases.Add(kernel, batch);
            }
        }
        return cases;
    }

    [Theory]
    [MemberData(nameof(Batches))]
    public void Fuzzed_articles_match_the_reference(string kernel, int batch)
    {
        for (var seed = batch; seed < Articles; seed += 8)
        {
            var wire = YencFuzzArticles.Create(seed);
            AssertMatchesReference(kernel, wire, seed);
        }
    }

    [Theory]
    [MemberData(nameof(Batches))]
    public void Encoded_nasty_articles_match_the_reference_at_every_split(string kernel, int batch)
    {
        var size = 40 + (batch * 23);
        var wire = YencWire.Article(YencWire.NastyData(size, batch), YencWire.MultiPart(size), lineLength: 5 + batch);
        AssertMatchesReference(kernel, wire, batch, splitEverywhere: true);
    }

    internal static void AssertMatchesReference(string kernel, byte[] wire, int seed, bool splitEverywhere = false)
    {
        byte[] expected;
        YencHeader? header;
        YencTrailer? trailer;
        int consumed;
        try
        {
            expected = YencReferenceDecoder.DecodeArticle(wire, out header, out trailer, out consumed);
        }
        catch (YencException)
        {
            Assert.Throws<YencException>(() => YencDriver.Whole(YencWire.Decoder(kernel), wire));
            Assert.Throws<YencException>(() => YencDriver.Chunked(
                YencWire.Decoder(kernel), wire, YencDriver.RandomSizes(seed, 64), YencDriver.RandomSizes(seed + 1, 64)));
            return;
        }

        void Check(YencDriver.Result result, YencDecoder decoder, string how)
        {
            Assert.True(result.Completed, $"seed {seed} {how}: not completed");
            Assert.True(expected.AsSpan().SequenceEqual(result.Data), $"seed {seed} {how}: decoded bytes differ");
            Assert.Equal(consumed, result.Consumed);
            Assert.Equal(header, decoder.Header);
            Assert.Equal(trailer, decoder.Trailer);
            Assert.Equal(header is null ? 0 : 1, result.HeaderParsedCount);
        }

        var decoder = YencWire.Decoder(kernel);
        Check(YencDriver.Whole(decoder, wire), decoder, "whole");

        decoder.Reset();
        Check(YencDriver.Chunked(decoder, wire, YencDriver.RandomSizes(seed, 64), YencDriver.RandomSizes(seed + 1, 4096)), decoder, "random chunks");

        decoder.Reset();
        Check(YencDriver.Chunked(decoder, wire, YencDriver.RandomSizes(seed + 2, 5000), YencDriver.RandomSizes(seed + 3, 64)), decoder, "small destinations");

        if (wire.Length <= 4 * SplitEverywhereMaxLength)
        {
            decoder.Reset();
            Check(YencDriver.Chunked(decoder, wire, () => 1, () => 1), decoder, "byte by byte");
        }
        if (splitEverywhere || wire.Length <= SplitEverywhereMaxLength)
        {
            for (var split = 1; split < wire.Length; split++)
            {
                decoder.Reset();
                Check(YencDriver.Chunked(decoder, wire, YencDriver.SplitAt(split), () => int.MaxValue), decoder, $"split at {split}");
            }
        }
    }
}

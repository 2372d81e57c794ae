using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Yenc;

/// <summary>
/// Feeds a wire body to a <see cref="YencDecoder"/> the way a network reader would (chunks of
/// chosen sizes, destinations of chosen sizes) and checks the API contract on every call.
/// </summary>
internal static class YencDriver
{
    public sealed record Result(byte[] Data, int Consumed, bool Completed, int HeaderParsedCount);

    public static Result Whole(YencDecoder decoder, byte[] wire)
        => Run(decoder, wire, () => int.MaxValue, () => wire.Length + 64);

    public static Result Chunked(YencDecoder decoder, byte[] wire, Func<int> chunk, Func<int> destination)
        => Run(decoder, wire, chunk, destination);

    public static Result Run(YencDecoder decoder, byte[] wire, Func<int> nextChunk, Func<int> nextDestination)
    {
        var output = new List<byte>();
        var buffer = new byte[wire.Length + 64];
        var pos = 0;
        var headers = 0;
        var calls = 0;
        while (true)
        {
            var chunk = wire.AsSpan(pos, Math.Min(Math.Max(nextChunk(), 1), wire.Length - pos));
            while (true)
            {
                Assert.True(++calls < 10_000_000, "the decoder is not making progress");
                var room = Math.Clamp(nextDestination(), 1, buffer.Length);
                var status = decoder.Decode(chunk, buffer.AsSpan(0, room), out var consumed, out var written);
                Assert.InRange(consumed, 0, chunk.Length);
                Assert.InRange(written, 0, room);
                output.AddRange(buffer.AsSpan(0, written));
                chunk = chunk[consumed..];
                pos += consumed;
                switch (status)
                {
                    case YencDecodeStatus.NeedMoreData:
                        Assert.True(chunk.IsEmpty, "NeedMoreData must consume the whole source");
                        break;
                    case YencDecodeStatus.HeaderParsed:
                        Assert.Equal(0, written);
                        Assert.NotNull(decoder.Header);
                        headers++;
                        continue;
                    case YencDecodeStatus.DestinationFull:
                        Assert.Equal(room, written);
                        continue;
                    case YencDecodeStatus.Completed:
                        CheckTotals(decoder, output);
                        return new Result([.. output], pos, true, headers);
                }
                break;
            }
            if (pos >= wire.Length)
            {
                CheckTotals(decoder, output);
                return new Result([.. output], pos, false, headers);
            }
        }
    }

    /// <summary>One split: the first chunk is <paramref name="at"/> bytes, the second the rest.</summary>
    public static Func<int> SplitAt(int at)
    {
        var first = true;
        return () =>
        {
            var size = first ? at : int.MaxValue;
            first = false;
            return size;
        };
    }

    /// <summary>Chunk sizes drawn from a seeded generator: mostly small, sometimes large.</summary>
    public static Func<int> RandomSizes(int seed, int max)
    {
        var rng = new Random(seed);
        return () => rng.Next(4) == 0 ? rng.Next(1, max + 1) : rng.Next(1, Math.Min(max, 40) + 1);
    }

    private static void CheckTotals(YencDecoder decoder, List<byte> output)
    {
        Assert.Equal(output.Count, decoder.DecodedLength);
        Assert.Equal(System.IO.Hashing.Crc32.HashToUInt32([.. output]), decoder.Crc32);
    }
}

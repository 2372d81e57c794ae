using NzbDav.Usenet.Yenc;

namespace NzbDav.Fuzz.Targets;

/// <summary>
/// The incremental yEnc decoder. Input: a 4-byte split seed, then an article body in NNTP wire form.
/// The body is decoded twice: in one piece by the scalar kernel with ample space, and by the fastest
/// kernel in pieces of arbitrary size into destinations of arbitrary size. Both runs must produce the
/// same bytes, header, trailer and verdict. When the decoder accepts the article (EnsureValid passes)
/// and the body has the strict shape of the yEnc spec, <see cref="ReferenceYenc"/> must decode the same
/// bytes. Clean rejection: <see cref="YencException"/> (a bad keyword line, size or CRC).
/// </summary>
public sealed class YencTarget : FuzzTarget
{
    // The scalar run hashes with System.IO.Hashing, so the folded CRC of the fast run is checked too.
    private readonly YencDecoder _scalar = new(YencKernel.Scalar, libraryCrc: true);
    private readonly YencDecoder _fast = new();

    public override string Name => "yenc";

    public override bool Run(byte[] input)
    {
        var seed = SplitPlan.SeedOf(input);
        var body = input.AsSpan(Math.Min(4, input.Length));
        var whole = Decode(_scalar, body, null);
        var split = Decode(_fast, body, new SplitPlan(seed));
        if (whole != split)
        {
            throw new FuzzFindingException($"Whole-buffer scalar decode and split {_fast.Kernel} decode disagree:\n  whole: {whole}\n  split: {split}");
        }
        if (whole.Verdict == "valid" && ReferenceYenc.TryDecode(body) is { } reference && !reference.AsSpan().SequenceEqual(whole.Bytes))
        {
            throw new FuzzFindingException($"The decoder accepted the article but its {whole.Bytes.Length} bytes differ from the reference decoder's {reference.Length}.");
        }
        return whole.Verdict == "valid";
    }

    private static Outcome Decode(YencDecoder decoder, ReadOnlySpan<byte> body, SplitPlan? plan)
    {
        decoder.Reset();
        // Decoded data is never longer than the encoded body.
        var output = new byte[body.Length + 1];
        var written = 0;
        var position = 0;
        var status = YencDecodeStatus.NeedMoreData;
        try
        {
            while (true)
            {
                var chunk = plan is null ? body.Length - position : plan.Next(body.Length - position);
                var room = plan is null ? output.Length - written : plan.Next(output.Length - written);
                var source = body.Slice(position, chunk);
                status = decoder.Decode(source, output.AsSpan(written, room), out var used, out var count);
                if (used < 0 || used > source.Length || count < 0 || count > room)
                {
                    throw new FuzzFindingException($"Decode reported consumed={used} of {source.Length}, written={count} of {room}.");
                }
                if (status == YencDecodeStatus.NeedMoreData && used != source.Length)
                {
                    throw new FuzzFindingException($"NeedMoreData after consuming {used} of {source.Length} bytes.");
                }
                if (used == 0 && count == 0 && status is YencDecodeStatus.DestinationFull && room > 0)
                {
                    throw new FuzzFindingException("DestinationFull with space left and no progress.");
                }
                position += used;
                written += count;
                if (status == YencDecodeStatus.Completed || (status == YencDecodeStatus.NeedMoreData && position == body.Length))
                {
                    break;
                }
            }
            if (decoder.DecodedLength != written)
            {
                throw new FuzzFindingException($"DecodedLength {decoder.DecodedLength} but {written} bytes were written.");
            }
            var verdict = "incomplete";
            if (status == YencDecodeStatus.Completed)
            {
                decoder.EnsureValid();
                verdict = "valid";
            }
            return new Outcome(verdict, position, output.AsSpan(0, written).ToArray(), decoder.Header, decoder.Trailer, decoder.Crc32);
        }
        catch (YencException e)
        {
            // Where the fault is noticed may differ by split point, but not that there is one.
            return new Outcome($"{e.GetType().Name}: {e.Message}", -1, [], null, null, 0);
        }
    }

    private sealed record Outcome(string Verdict, int Consumed, byte[] Bytes, YencHeader? Header, YencTrailer? Trailer, uint Crc)
    {
        public bool Equals(Outcome? other) =>
            other is not null && Verdict == other.Verdict && Consumed == other.Consumed && Bytes.AsSpan().SequenceEqual(other.Bytes)
            && Equals(Header, other.Header) && Equals(Trailer, other.Trailer) && Crc == other.Crc;

        public override int GetHashCode() => HashCode.Combine(Verdict, Consumed, Bytes.Length, Crc);

        public override string ToString() => $"{Verdict}, consumed {Consumed}, {Bytes.Length} bytes, crc {Crc:x8}, header {Header}, trailer {Trailer}";
    }
}

using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;
using NzbDav.Usenet.Yenc;
using LibraryCrc32 = System.IO.Hashing.Crc32;

namespace NzbDav.Usenet.Tests.Yenc;

/// <summary>
/// The folded CRC-32 against System.IO.Hashing: every length around the fold widths, at every
/// alignment, appended in random pieces, and with the widest paths turned off where the CPU has them.
/// </summary>
public sealed class Crc32AccumulatorTests
{
    [Fact]
    public void The_fold_constants_match_the_published_ones()
    {
        // x^(128±32) and x^(512±32) mod P, reflected and shifted one place: the constants Intel's
        // PCLMULQDQ CRC paper gives for the IEEE polynomial, here computed rather than copied.
        Assert.Equal(0x1751997d0UL, Crc32Fold.Constant(160));
        Assert.Equal(0x0ccaa009eUL, Crc32Fold.Constant(96));
        Assert.Equal(0x154442bd4UL, Crc32Fold.Constant(544));
        Assert.Equal(0x1c6e41596UL, Crc32Fold.Constant(480));
    }

    [Fact]
    public void Every_length_and_alignment_matches_the_library()
    {
        Assert.SkipUnless(Crc32Accumulator.IsSupported, "This CPU has no PCLMULQDQ; the decoder uses System.IO.Hashing.");
        var data = new byte[1200];
        new Random(1).NextBytes(data);
        for (var offset = 0; offset < 17; offset++)
        {
            for (var length = 0; length <= data.Length - offset; length += length < 600 ? 1 : 37)
            {
                var piece = data.AsSpan(offset, length);
                var crc = new Crc32Accumulator();
                crc.Append(piece);
                Assert.True(LibraryCrc32.HashToUInt32(piece) == crc.Value, $"offset {offset}, length {length}");
            }
        }
    }

    [Theory]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public void Random_pieces_match_hashing_the_whole(int seed)
    {
        Assert.SkipUnless(Crc32Accumulator.IsSupported, "This CPU has no PCLMULQDQ; the decoder uses System.IO.Hashing.");
        var random = new Random(seed);
        var data = new byte[random.Next(100_000, 800_000)];
        random.NextBytes(data);
        var crc = new Crc32Accumulator();
        var position = 0;
        while (position < data.Length)
        {
            // Mostly small and odd pieces, now and then a long one, as a socket delivers them.
            var size = random.Next(4) == 0 ? random.Next(1, 70_000) : random.Next(0, 300);
            size = Math.Min(size, data.Length - position);
            crc.Append(data.AsSpan(position, size));
            position += size;
            Assert.Equal(LibraryCrc32.HashToUInt32(data.AsSpan(0, position)), crc.Value);
        }
    }

    [Fact]
    public void Reset_starts_a_new_hash()
    {
        Assert.SkipUnless(Crc32Accumulator.IsSupported, "This CPU has no PCLMULQDQ; the decoder uses System.IO.Hashing.");
        var crc = new Crc32Accumulator();
        crc.Append(new byte[5000]);
        crc.Reset();
        crc.Append("123456789"u8);
        Assert.Equal(0xCBF43926u, crc.Value);
        crc.Reset();
        Assert.Equal(0u, crc.Value);
    }

    [Fact]
    public unsafe void Each_fold_width_alone_matches_the_library()
    {
        Assert.SkipUnless(Pclmulqdq.IsSupported && Sse41.IsSupported, "This CPU has no PCLMULQDQ.");
        var data = new byte[4096 + 16 + 77];
        new Random(9).NextBytes(data);
        var expected = LibraryCrc32.HashToUInt32(data);
        Assert.Equal(expected, Fold(data, Crc32Fold.Wide128Bytes, (p, n, r) => Crc32Fold.Wide128(p, n, r)));
        if (Pclmulqdq.V256.IsSupported)
        {
            Assert.Equal(expected, Fold(data, Crc32Fold.Wide256Bytes, (p, n, r) => Crc32Fold.Wide256(p, n, r)));
        }
        if (Crc32Fold.Has512)
        {
            Assert.Equal(expected, Fold(data, Crc32Fold.Wide512Bytes, (p, n, r) => Crc32Fold.Wide512(p, n, r)));
        }
    }

    [Fact]
    public void The_decoder_checks_with_the_fold_or_the_library_and_both_agree()
    {
        var data = new byte[300_001];
        new Random(5).NextBytes(data);
        var wire = YencWire.Article(data, YencWire.SinglePart(data.Length));
        var folded = new YencDecoder();
        var library = new YencDecoder(YencKernel.Scalar, libraryCrc: true);
        YencDriver.Chunked(folded, wire, YencDriver.RandomSizes(21, 9000), YencDriver.RandomSizes(22, 65_536));
        YencDriver.Chunked(library, wire, YencDriver.RandomSizes(23, 9000), YencDriver.RandomSizes(24, 65_536));

        Assert.Equal(Crc32Accumulator.IsSupported, !folded.UsesLibraryCrc);
        Assert.True(library.UsesLibraryCrc);
        Assert.Equal(LibraryCrc32.HashToUInt32(data), folded.Crc32);
        Assert.Equal(LibraryCrc32.HashToUInt32(data), library.Crc32);
        folded.EnsureValid();
    }

    private unsafe delegate Vector128<ulong> WideFold(byte* p, int blocks, Vector128<ulong> remainder);

    // The whole CRC with one width: the first block carries the register's initial ones, the
    // width's blocks follow, then 16-byte blocks, then the table over the remainder and the tail.
    private static unsafe uint Fold(byte[] data, int width, WideFold wide)
    {
        fixed (byte* p = data)
        {
            var remainder = Vector128.Load(p).AsUInt64() ^ Vector128.CreateScalar(0xFFFFFFFFUL);
            var blocks = (data.Length - 16) / width;
            remainder = wide(p + 16, blocks, remainder);
            var at = 16 + blocks * width;
            for (; at + 16 <= data.Length; at += 16)
            {
                remainder = Crc32Fold.By128(remainder) ^ Vector128.Load(p + at).AsUInt64();
            }
            Span<byte> bytes = stackalloc byte[16];
            remainder.AsByte().CopyTo(bytes);
            return ~Crc32Fold.Bytewise(Crc32Fold.Bytewise(0, bytes), data.AsSpan(at));
        }
    }
}

using BenchmarkDotNet.Attributes;
using NzbDav.MockNntp.Yenc;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Benchmarks.Yenc;

/// <summary>
/// Decoding one realistic article as it arrives from a server: 750 000 random bytes, yEnc-encoded
/// with 128-character lines and dot-stuffing, plus the ".\r\n" terminator. One call per kernel on
/// one thread; the GB/s column is decoded bytes per second (the CRC-32 is included: folded with
/// carry-less multiplies where the CPU has them). A kernel this CPU lacks runs the scalar one.
/// </summary>
[MemoryDiagnoser]
[Config(typeof(YencThroughputConfig))]
public class YencDecodeBenchmarks
{
    public const int ArticleSize = 750_000;

    private readonly byte[] _destination = new byte[ArticleSize];
    private byte[] _wire = [];
    private YencDecoder _scalar = null!;
    private YencDecoder _vector128 = null!;
    private YencDecoder _vector256 = null!;
    private YencDecoder _vector512 = null!;

    [GlobalSetup]
    public void Setup()
    {
        var data = new byte[ArticleSize];
        new Random(750).NextBytes(data);
        var spec = new YencPartSpec("benchmark.bin", ArticleSize * 100L, 42, 100, ArticleSize * 41L);
        var encoded = YencEncoder.Encode(data, spec, new YencEncoderOptions { LineLength = 128, DotStuff = true });
        _wire = [.. encoded, .. ".\r\n"u8];
        _scalar = new YencDecoder(YencKernel.Scalar);
        _vector128 = new YencDecoder(YencDecoder.IsSupported(YencKernel.Vector128) ? YencKernel.Vector128 : YencKernel.Scalar);
        _vector256 = new YencDecoder(YencDecoder.IsSupported(YencKernel.Vector256) ? YencKernel.Vector256 : YencKernel.Scalar);
        _vector512 = new YencDecoder(YencDecoder.IsSupported(YencKernel.Vector512) ? YencKernel.Vector512 : YencKernel.Scalar);
        foreach (var decoder in new[] { _scalar, _vector128, _vector256, _vector512 })
        {
            if (DecodeArticle(decoder) != System.IO.Hashing.Crc32.HashToUInt32(data))
            {
                throw new InvalidOperationException($"The {decoder.Kernel} kernel decoded the benchmark article wrongly.");
            }
        }
    }

    [Benchmark(Baseline = true)]
    public uint Scalar() => DecodeArticle(_scalar);

    [Benchmark]
    public uint Vector128() => DecodeArticle(_vector128);

    [Benchmark]
    public uint Vector256() => DecodeArticle(_vector256);

    [Benchmark]
    public uint Vector512() => DecodeArticle(_vector512);

    private uint DecodeArticle(YencDecoder decoder)
    {
        decoder.Reset();
        ReadOnlySpan<byte> source = _wire;
        var written = 0;
        while (true)
        {
            var status = decoder.Decode(source, _destination.AsSpan(written), out var consumed, out var n);
            source = source[consumed..];
            written += n;
            if (status == YencDecodeStatus.Completed)
            {
                return decoder.EnsureValid().PartCrc32 ?? 0;
            }
            if (status is YencDecodeStatus.NeedMoreData or YencDecodeStatus.DestinationFull)
            {
                throw new InvalidOperationException($"The benchmark article did not decode in one pass ({status}).");
            }
        }
    }
}

using BenchmarkDotNet.Attributes;
using System.IO.Hashing;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Benchmarks.Yenc;

/// <summary>
/// CRC-32 alone over one article's decoded bytes, System.IO.Hashing against the decoder's folded
/// accumulator: in one call, and in the pieces the streaming decoder feeds it as a segment arrives
/// (64 KiB, and the 4 KiB of a pipe segment).
/// </summary>
[Config(typeof(YencThroughputConfig))]
public class Crc32Benchmarks
{
    private const int Piece = 64 * 1024;
    private readonly byte[] _data = new byte[YencDecodeBenchmarks.ArticleSize];

    [GlobalSetup]
    public void Setup()
    {
        new Random(32).NextBytes(_data);
        if (Crc32Accumulator.IsSupported && FoldedPieces4K() != Crc32.HashToUInt32(_data))
        {
            throw new InvalidOperationException("The folded CRC-32 disagrees with System.IO.Hashing.");
        }
    }

    [Benchmark(Baseline = true)]
    public uint WholeArticle() => Crc32.HashToUInt32(_data);

    [Benchmark]
    public uint Pieces64K()
    {
        var crc = new Crc32();
        for (var offset = 0; offset < _data.Length; offset += Piece)
        {
            crc.Append(_data.AsSpan(offset, Math.Min(Piece, _data.Length - offset)));
        }

        return crc.GetCurrentHashAsUInt32();
    }

    [Benchmark]
    public uint FoldedWholeArticle()
    {
        var crc = new Crc32Accumulator();
        crc.Append(_data);
        return crc.Value;
    }

    [Benchmark]
    public uint FoldedPieces64K() => FoldedPieces(Piece);

    [Benchmark]
    public uint FoldedPieces4K() => FoldedPieces(4096);

    private uint FoldedPieces(int size)
    {
        var crc = new Crc32Accumulator();
        for (var offset = 0; offset < _data.Length; offset += size)
        {
            crc.Append(_data.AsSpan(offset, Math.Min(size, _data.Length - offset)));
        }

        return crc.Value;
    }
}

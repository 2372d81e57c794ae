using BenchmarkDotNet.Attributes;
using System.IO.Hashing;

namespace NzbDav.Benchmarks.Yenc;

/// <summary>
/// CRC-32 alone over one article's decoded bytes: in one call, and in the 64 KiB pieces the
/// streaming decoder feeds it as a segment arrives.
/// </summary>
[Config(typeof(YencThroughputConfig))]
public class Crc32Benchmarks
{
    private const int Piece = 64 * 1024;
    private readonly byte[] _data = new byte[YencDecodeBenchmarks.ArticleSize];

    [GlobalSetup]
    public void Setup() => new Random(32).NextBytes(_data);

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
}

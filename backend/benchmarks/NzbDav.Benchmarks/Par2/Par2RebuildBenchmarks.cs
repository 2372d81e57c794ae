using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using NzbDav.Archives.Par2;
using NzbDav.Benchmarks.Yenc;

namespace NzbDav.Benchmarks.Par2;

/// <summary>
/// The repair's compute on one core: the GF(2^16) multiply-add over one 512 KiB slice at each
/// instruction width, and a whole rebuild of 20 lost slices from 200 surviving ones and 20 recovery
/// slices (the shape of <c>par2 repair</c> on a 100 MiB file at 10 % redundancy, which
/// docs/benchmarks.md times beside it). GB/s is multiply-add bytes: slice bytes × products.
/// </summary>
[Config(typeof(Config))]
public class Par2RebuildBenchmarks
{
    public const int SliceSize = 512 * 1024;
    public const int Surviving = 200;
    public const int Lost = 20;

    private readonly byte[] _source = new byte[SliceSize];
    private readonly byte[] _destination = new byte[SliceSize];
    private Galois16Region _region = null!;
    private Galois16Region.Acceleration _width;

    [Params("Scalar", "Ssse3", "Avx2", "Avx512")]
    public string Width { get; set; } = "Avx2";

    [GlobalSetup]
    public void Setup()
    {
        new Random(16).NextBytes(_source);
        _region = new Galois16Region(0x1234);
        _width = Enum.Parse<Galois16Region.Acceleration>(Width);
    }

    [Benchmark]
    public void MultiplyAddSlice() => _region.MultiplyAdd(_source, _destination, _width);

    public sealed class MinMedianConfig : ManualConfig
    {
        public MinMedianConfig() => AddColumn(StatisticColumn.Min, StatisticColumn.Median);
    }

    private sealed class Config : ManualConfig
    {
        public Config()
        {
            AddColumn(StatisticColumn.Min, StatisticColumn.Median);
            AddColumn(new YencThroughputColumn(SliceSize, fromMin: false), new YencThroughputColumn(SliceSize, fromMin: true));
        }
    }
}

/// <summary>
/// A whole rebuild at two shapes: 20 lost slices of 220 (512 KiB slices; what <c>par2 repair</c> of a
/// 110 MiB file at 10 % redundancy does) and 33 lost of 2,000 (536,872-byte slices: the 1 GiB file
/// with 15 of its 1,498 articles lost that <c>Par2LargeRepairTests</c> repairs, with the one spare
/// recovery slice the repair reads). Multiply-add bytes per operation: (surviving × (lost + spare) +
/// lost²) × slice size.
/// </summary>
[Config(typeof(Par2RebuildBenchmarks.MinMedianConfig))]
public class Par2WholeRebuildBenchmarks
{
    private byte[] _source = [];

    [Params("20 of 220 x 512 KiB", "33 of 2000 x 536872 (1 GiB)")]
    public string Shape { get; set; } = "20 of 220 x 512 KiB";

    private (int Surviving, int Lost, int Spare, int SliceSize) Dimensions =>
        Shape.StartsWith("20 ", StringComparison.Ordinal) ? (200, 20, 0, 512 * 1024) : (1967, 33, 1, 536_872);

    /// <summary>In memory, or over a scratch file in stripes of a 4 MiB budget (what a repair past Health:Par2MemoryBytes does).</summary>
    [Params(false, true)]
    public bool Spilled { get; set; }

    private readonly string _scratch = Path.Combine(Path.GetTempPath(), "nzbdav-par2-bench-scratch");

    [GlobalSetup]
    public void Setup()
    {
        _source = new byte[Dimensions.SliceSize];
        new Random(16).NextBytes(_source);
    }

    [Benchmark]
    public int Rebuild()
    {
        var (surviving, lost, spare, sliceSize) = Dimensions;
        using var rebuilder = new Par2Rebuilder(surviving + lost, sliceSize, Enumerable.Range(0, lost).ToArray(), lost + spare,
            Spilled ? 4L * 1024 * 1024 : long.MaxValue, _scratch);
        for (var r = 0; r < lost + spare; r++)
        {
            rebuilder.AddRecovery((uint)r, _source);
        }

        for (var i = lost; i < surviving + lost; i++)
        {
            rebuilder.AddInput(i, _source);
        }

        if (!rebuilder.TryRebuild(out var slices, out _))
            return -1;
        using (slices)
            return slices!.Count;
    }
}

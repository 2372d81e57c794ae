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

/// <summary>A whole rebuild: see <see cref="Par2RebuildBenchmarks"/>; 4,400 multiply-adds of 512 KiB = 2.307 GB per operation.</summary>
[Config(typeof(Par2RebuildBenchmarks.MinMedianConfig))]
public class Par2WholeRebuildBenchmarks
{
    private const int SliceSize = Par2RebuildBenchmarks.SliceSize;
    private const int Surviving = Par2RebuildBenchmarks.Surviving;
    private const int Lost = Par2RebuildBenchmarks.Lost;
    private readonly byte[] _source = new byte[SliceSize];

    [GlobalSetup]
    public void Setup() => new Random(16).NextBytes(_source);

    /// <summary>
    /// 20 recovery slices and 200 surviving input slices into 20 accumulators, solved: 4,400 slice
    /// multiply-adds and the 20×20 inversion (the widest instructions the machine has).
    /// </summary>
    [Benchmark]
    public int Rebuild()
    {
        var rebuilder = new Par2Rebuilder(Surviving + Lost, SliceSize, Enumerable.Range(0, Lost).ToArray(), Lost);
        for (var r = 0; r < Lost; r++)
        {
            rebuilder.AddRecovery((uint)r, _source);
        }

        for (var i = Lost; i < Surviving + Lost; i++)
        {
            rebuilder.AddInput(i, _source);
        }

        return rebuilder.TryRebuild(out var slices, out _) ? slices.Count : -1;
    }
}

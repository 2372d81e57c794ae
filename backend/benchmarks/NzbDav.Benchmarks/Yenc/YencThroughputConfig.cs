using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;

namespace NzbDav.Benchmarks.Yenc;

/// <summary>Adds the Min/Median statistics and the decoded-throughput columns to the yEnc benchmarks.</summary>
public sealed class YencThroughputConfig : ManualConfig
{
    public YencThroughputConfig()
    {
        AddColumn(StatisticColumn.Min, StatisticColumn.Median);
        AddColumn(
            new YencThroughputColumn(YencDecodeBenchmarks.ArticleSize, fromMin: false),
            new YencThroughputColumn(YencDecodeBenchmarks.ArticleSize, fromMin: true));
    }
}

using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace NzbDav.Benchmarks.Yenc;

/// <summary>
/// Decoded bytes per second (GB = 10^9 bytes) from the Mean, or from the Min time of one
/// operation: on a machine shared with other work the Min is the closer estimate of what one
/// uncontended core does, so both are shown, each labelled.
/// </summary>
public sealed class YencThroughputColumn(long bytesPerOperation, bool fromMin) : IColumn
{
    public string Id => $"{nameof(YencThroughputColumn)}.{(fromMin ? "Min" : "Mean")}";

    public string ColumnName => fromMin ? "GB/s at Min" : "GB/s at Mean";

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Custom;

    public int PriorityInCategory => fromMin ? 1 : 0;

    public bool IsNumeric => true;

    public UnitType UnitType => UnitType.Dimensionless;

    public string Legend => $"Decoded output bytes per second at the {(fromMin ? "Min" : "Mean")} time, 10^9 bytes per GB";

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase)
        => GetValue(summary, benchmarkCase, SummaryStyle.Default);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
    {
        var statistics = summary[benchmarkCase]?.ResultStatistics;
        var nanoseconds = fromMin ? statistics?.Min : statistics?.Mean;
        return nanoseconds is > 0
            ? (bytesPerOperation / nanoseconds.Value).ToString("0.00", CultureInfo.InvariantCulture)
            : "n/a";
    }

    public bool IsAvailable(Summary summary) => true;

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;
}

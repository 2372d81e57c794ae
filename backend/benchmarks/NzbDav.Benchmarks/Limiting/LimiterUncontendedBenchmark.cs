using System.Diagnostics.CodeAnalysis;
using BenchmarkDotNet.Attributes;
using NzbDav.Usenet.Limiting;

namespace NzbDav.Benchmarks.Limiting;

/// <summary>Acquire + release when capacity is free: the path every article fetch takes.</summary>
[MemoryDiagnoser]
[SuppressMessage("Reliability", "CA2012:Use ValueTasks correctly",
    Justification = "Every acquire here completes synchronously (free budget, or handed off inside Dispose); reading Result directly keeps an AsTask allocation out of the measurement.")]
public class LimiterUncontendedBenchmark
{
    private readonly GlobalOperationLimiter _limiter = new(LimiterOptions.CreateDefault(20));

    [Benchmark]
    public void AcquireRelease()
    {
        var pending = _limiter.AcquireAsync(OperationKind.Streaming, CancellationToken.None);
        pending.Result.Dispose();
    }
}

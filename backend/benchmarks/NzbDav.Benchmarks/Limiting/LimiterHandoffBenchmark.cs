using System.Diagnostics.CodeAnalysis;
using BenchmarkDotNet.Attributes;
using NzbDav.Usenet.Limiting;

namespace NzbDav.Benchmarks.Limiting;

/// <summary>Budget exhausted: a waiter parks and is handed the permit its predecessor releases.</summary>
[MemoryDiagnoser]
[SuppressMessage("Reliability", "CA2012:Use ValueTasks correctly",
    Justification = "Every acquire here completes synchronously (free budget, or handed off inside Dispose); reading Result directly keeps an AsTask allocation out of the measurement.")]
public class LimiterHandoffBenchmark
{
    private readonly GlobalOperationLimiter _limiter = new(LimiterOptions.CreateDefault(1));
    private LimiterPermit _held;

    [GlobalSetup]
    public void Setup() => _held = _limiter.AcquireAsync(OperationKind.Streaming, CancellationToken.None).Result;

    [GlobalCleanup]
    public void Cleanup() => _held.Dispose();

    [Benchmark]
    public void ParkAndHandOff()
    {
        var waiter = _limiter.AcquireAsync(OperationKind.Streaming, CancellationToken.None);
        _held.Dispose(); // wakes exactly the one waiter
        _held = waiter.Result;
    }
}

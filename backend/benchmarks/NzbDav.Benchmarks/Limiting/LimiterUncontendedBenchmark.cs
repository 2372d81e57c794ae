using BenchmarkDotNet.Attributes;
using NzbDav.Usenet.Limiting;

namespace NzbDav.Benchmarks.Limiting;

/// <summary>Acquire + release when capacity is free: the path every article fetch takes.</summary>
[MemoryDiagnoser]
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

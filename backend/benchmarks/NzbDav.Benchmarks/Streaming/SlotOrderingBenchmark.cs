using BenchmarkDotNet.Attributes;

namespace NzbDav.Benchmarks.Streaming;

/// <summary>
/// The ordering path without sockets: producer threads publish 70 × 700 KiB segments into the
/// slot ring out of order (each batch highest index first) while the reader consumes the stream
/// in order in 256 KiB reads. One operation = one whole 50 MB file.
/// </summary>
[MemoryDiagnoser]
public class SlotOrderingBenchmark
{
    private readonly StreamBenchmarkFile _file = new();
    private readonly byte[] _buffer = new byte[256 * 1024];

    [Params(1, 4)]
    public int Producers { get; set; }

    [Benchmark]
    public async Task<long> ReadWholeFile()
    {
        await using var stream = _file.Open(Producers, readAheadBytes: 32L * 1024 * 1024);
        var read = await StreamBenchmarkFile.ReadToEndAsync(stream, _buffer);
        return read == _file.Data.Length ? read : throw new InvalidOperationException($"Read {read} of {_file.Data.Length} bytes.");
    }
}

using BenchmarkDotNet.Attributes;

namespace NzbDav.Benchmarks.Streaming;

/// <summary>
/// The reader's copy path alone: every segment is filled the moment the window asks for it, so a
/// read never waits. One operation = one whole 50 MB file in reads of <see cref="ReadSize"/> bytes.
/// </summary>
[MemoryDiagnoser]
public class ReaderCopyBenchmark
{
    private readonly StreamBenchmarkFile _file = new();
    private byte[] _buffer = [];

    [Params(16 * 1024, 256 * 1024, 1024 * 1024)]
    public int ReadSize { get; set; }

    [GlobalSetup]
    public void Setup() => _buffer = new byte[ReadSize];

    [Benchmark]
    public async Task<long> ReadWholeFile()
    {
        await using var stream = _file.Open(producers: 0, readAheadBytes: 8L * 1024 * 1024);
        var read = await StreamBenchmarkFile.ReadToEndAsync(stream, _buffer);
        return read == _file.Data.Length ? read : throw new InvalidOperationException($"Read {read} of {_file.Data.Length} bytes.");
    }
}

using System.Buffers;
using NzbDav.Streaming;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Benchmarks.Streaming;

/// <summary>A 48 MB file of 700 KiB parts held in memory, and streams over it with an in-memory fetcher.</summary>
internal sealed class StreamBenchmarkFile
{
    public const int PartSize = 700 * 1024;
    public const int Parts = 70;

    private readonly ArrayPool<byte> _pool = ArrayPool<byte>.Create(SegmentBuffer.ChunkSize, 2048);
    private readonly string[] _messageIds = Enumerable.Range(1, Parts).Select(i => $"part{i}@bench").ToArray();

    public StreamBenchmarkFile()
    {
        Data = new byte[PartSize * Parts];
        new Random(42).NextBytes(Data);
    }

    public byte[] Data { get; }

    public BufferedSegmentStream Open(int producers, long readAheadBytes)
    {
        var header = new YencHeader("bench.bin", Data.Length, 128, 1, Parts, 0, PartSize);
        var options = new StreamingOptions { MaxReadAheadBytes = readAheadBytes };
        var fetcher = new InMemorySegmentFetcher(Data, PartSize, _messageIds, producers);
        // Each stream gets its own cache and budget: a benchmark measures one stream's ordering and
        // copy path, not segments shared with earlier iterations.
        var cache = new SegmentCache(() => options.SegmentCacheBytes);
        var budget = new ReadAheadBudget(() => options.ReadAheadBudgetBytes, TimeProvider.System);
        return new BufferedSegmentStream(new SegmentIndex(_messageIds, header), fetcher, options, new StreamStatistics(), null, _pool, cache, budget, TimeProvider.System);
    }

    /// <summary>Reads the stream to its end; returns the bytes read (checked by the caller).</summary>
    public static async Task<long> ReadToEndAsync(Stream stream, byte[] buffer)
    {
        long total = 0;
        int read;
        while ((read = await stream.ReadAsync(buffer).ConfigureAwait(false)) > 0)
        {
            total += read;
        }
        return total;
    }
}

using System.Buffers;
using System.Collections.Concurrent;
using System.Threading.Channels;
using NzbDav.Streaming;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Benchmarks.Streaming;

/// <summary>
/// Stands in for the network: fills the stream's tickets from a byte array. With producers, each
/// wake hands the new tickets out highest index first to several threads, so segments are
/// published out of order while the reader consumes them in order; with none, tickets are filled
/// at once on the reader's thread (only the copy path is left to measure).
/// </summary>
internal sealed class InMemorySegmentFetcher : ISegmentFetcher
{
    private const int WriteSlice = 16 * 1024;

    private readonly byte[] _file;
    private readonly int _partSize;
    private readonly ArrayPool<byte> _pool;
    private readonly ConcurrentQueue<SegmentTicket> _submitted = new();
    private readonly Channel<SegmentTicket> _work = Channel.CreateUnbounded<SegmentTicket>();
    private readonly Task[] _producers;
    private readonly List<SegmentTicket> _batch = [];

    public InMemorySegmentFetcher(byte[] file, int partSize, ArrayPool<byte> pool, int producers)
    {
        _file = file;
        _partSize = partSize;
        _pool = pool;
        _producers = Enumerable.Range(0, producers).Select(_ => Task.Run(ProduceAsync)).ToArray();
    }

    public TimeSpan? MedianTimeToFirstByte => TimeSpan.FromMilliseconds(50);

    public void Submit(SegmentTicket ticket)
    {
        if (_producers.Length == 0)
        {
            Fill(ticket);
            return;
        }
        _submitted.Enqueue(ticket);
    }

    public void Withdraw(SegmentTicket ticket)
    {
    }

    public void SetHead(SegmentTicket ticket)
    {
    }

    public void Anticipate(int segments)
    {
    }

    public void Warm(int segments)
    {
    }

    public void Wake()
    {
        _batch.Clear();
        while (_submitted.TryDequeue(out var ticket))
        {
            _batch.Add(ticket);
        }
        for (var i = _batch.Count - 1; i >= 0; i--)
        {
            _work.Writer.TryWrite(_batch[i]);
        }
    }

    public async ValueTask DisposeAsync()
    {
        _work.Writer.TryComplete();
        await Task.WhenAll(_producers).ConfigureAwait(false);
    }

    private async Task ProduceAsync()
    {
        await foreach (var ticket in _work.Reader.ReadAllAsync().ConfigureAwait(false))
        {
            Fill(ticket);
        }
    }

    /// <summary>What the NNTP receive loop does for an article: header, decoded slices, trailer.</summary>
    private void Fill(SegmentTicket ticket)
    {
        var begin = (long)ticket.Index * _partSize;
        var size = (int)Math.Min(_partSize, _file.Length - begin);
        var buffer = new SegmentBuffer(_pool, ticket, null);
        buffer.Begin(new YencHeader("bench.bin", _file.Length, 128, ticket.Index + 1, null, begin, size));
        for (var written = 0; written < size;)
        {
            var span = buffer.GetSpan();
            var count = Math.Min(Math.Min(span.Length, WriteSlice), size - written);
            _file.AsSpan((int)begin + written, count).CopyTo(span);
            buffer.Advance(count);
            written += count;
        }
        buffer.Complete(new YencTrailer(size, ticket.Index + 1, null, null));
        buffer.Release();
    }
}

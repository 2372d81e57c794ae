using System.Collections.Concurrent;
using System.Threading.Channels;
using NzbDav.Streaming;
using NzbDav.Usenet.Fetching;
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
    private readonly Dictionary<string, int> _indexOf;
    private readonly ConcurrentQueue<ArticleRequest> _submitted = new();
    private readonly Channel<ArticleRequest> _work = Channel.CreateUnbounded<ArticleRequest>();
    private readonly Task[] _producers;
    private readonly List<ArticleRequest> _batch = [];

    /// <param name="messageIds">The file's parts in order: a request's message-id says which part it wants.</param>
    public InMemorySegmentFetcher(byte[] file, int partSize, IReadOnlyList<string> messageIds, int producers)
    {
        _file = file;
        _partSize = partSize;
        _indexOf = messageIds.Select((id, i) => (id, i)).ToDictionary(p => p.id, p => p.i);
        _producers = Enumerable.Range(0, producers).Select(_ => Task.Run(ProduceAsync)).ToArray();
    }

    public TimeSpan? MedianTimeToFirstByte => TimeSpan.FromMilliseconds(50);

    public void Submit(ArticleRequest request)
    {
        if (_producers.Length == 0)
        {
            Fill(request);
            return;
        }
        _submitted.Enqueue(request);
    }

    public void Withdraw(ArticleRequest request)
    {
    }

    public void SetHead(ArticleRequest request)
    {
    }

    public void Expedite(ArticleRequest request)
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
        while (_submitted.TryDequeue(out var request))
        {
            _batch.Add(request);
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
        await foreach (var request in _work.Reader.ReadAllAsync().ConfigureAwait(false))
        {
            Fill(request);
        }
    }

    /// <summary>What the fetch group does for an article: a target, its header, decoded slices, trailer, then "found".</summary>
    private void Fill(ArticleRequest request)
    {
        var index = _indexOf[request.MessageId];
        var begin = (long)index * _partSize;
        var size = (int)Math.Min(_partSize, _file.Length - begin);
        var header = new YencHeader("bench.bin", _file.Length, 128, index + 1, null, begin, size);
        var target = request.CreateTarget();
        target.Begin(header);
        for (var written = 0; written < size;)
        {
            var span = target.GetSpan();
            var count = Math.Min(Math.Min(span.Length, WriteSlice), size - written);
            _file.AsSpan((int)begin + written, count).CopyTo(span);
            target.Advance(count);
            written += count;
        }
        target.Complete(new YencTrailer(size, index + 1, null, null));
        request.OnAttemptEnded(target, true);
        request.OnFound(header);
    }
}

using System.Buffers;

namespace NzbDav.Streaming;

/// <summary>How a <see cref="FetchAttempt"/> ended.</summary>
internal enum FetchOutcome
{
    /// <summary>Not finished yet.</summary>
    Running,
    Succeeded,
    Cancelled,
    /// <summary>The provider asked answered 430.</summary>
    Missing,
    /// <summary>The provider asked delivered a copy that failed yEnc or CRC checks.</summary>
    Corrupt,
    /// <summary>Worth trying again (connection failure, timeout, busy providers).</summary>
    Retryable,
    /// <summary>No retry can help (missing on every other provider too, a bug).</summary>
    Fatal,
}

/// <summary>One BODY request for one ticket on one worker's connection (possibly failing over to other providers).</summary>
internal sealed class FetchAttempt(SegmentTicket ticket, FetchWorker worker, bool viaOtherProviders, long startedAt)
{
    private readonly List<SegmentBuffer> _buffers = new(1);
    private SegmentBuffer? _latest;

    public SegmentTicket Ticket { get; } = ticket;

    public FetchWorker Worker { get; } = worker;

    /// <summary>Skip the worker's own provider (later retries, when other providers exist).</summary>
    public bool ViaOtherProviders { get; } = viaOtherProviders;

    public long StartedAt { get; } = startedAt;

    public CancellationTokenSource Cancellation { get; } = new();

    public bool CancelRequested { get; set; }

    public Task Task { get; set; } = Task.CompletedTask;

    public FetchOutcome Outcome { get; set; }

    public Exception? Error { get; set; }

    /// <summary>True once an answer started decoding (cancelling it now would break the connection).</summary>
    public bool HasBegun => Volatile.Read(ref _latest)?.HasBegun == true;

    /// <summary>When the answer that completed began to arrive (0 if none completed); kept after the buffers are released.</summary>
    public long CompletedBegunAt { get; private set; }

    /// <summary>A fresh target for one try (the client asks again for each provider it fails over to).</summary>
    public SegmentBuffer NewBuffer(ArrayPool<byte> pool, StreamStatistics statistics)
    {
        MarkUnfinishedFailed();
        var buffer = new SegmentBuffer(pool, Ticket, statistics) { Worker = Worker };
        _buffers.Add(buffer);
        Volatile.Write(ref _latest, buffer);
        return buffer;
    }

    /// <summary>Tells the reader that what these buffers hold will never complete.</summary>
    public void MarkUnfinishedFailed()
    {
        foreach (var buffer in _buffers)
        {
            if (!buffer.IsCompleted)
            {
                buffer.MarkFailed();
            }
        }
    }

    /// <summary>Drops the attempt's own references; published buffers live on in the ticket.</summary>
    public void ReleaseBuffers()
    {
        MarkUnfinishedFailed();
        foreach (var buffer in _buffers)
        {
            if (buffer.IsCompleted)
            {
                CompletedBegunAt = buffer.BegunAt;
            }
            buffer.Release();
        }
        _buffers.Clear();
    }
}

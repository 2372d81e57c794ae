using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Fetching;

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

    /// <summary>The provider or the link failed; worth trying again.</summary>
    Retryable,

    /// <summary>No retry can help (a consumer's bug, a disposed client).</summary>
    Fatal,
}

/// <summary>
/// One command for one request on one worker's connection. For BODY it stands between the decoder
/// and the request's target, so the group sees when an answer began and that a connection is still
/// delivering without the target knowing about either.
/// </summary>
internal sealed class FetchAttempt(ArticleRequest request, FetchWorker worker, long startedAt) : IYencBodyTarget
{
    private IYencBodyTarget? _target;
    private long _begunAt;

    public ArticleRequest Request { get; } = request;

    public FetchWorker Worker { get; } = worker;

    public long StartedAt { get; } = startedAt;

    public CancellationTokenSource Cancellation { get; } = new();

    public bool CancelRequested { get; set; }

    public Task Task { get; set; } = Task.CompletedTask;

    public FetchOutcome Outcome { get; set; }

    public Exception? Error { get; set; }

    /// <summary>The header of a BODY that succeeded.</summary>
    public YencHeader? Header { get; set; }

    /// <summary>True once an answer started decoding (cancelling it now would break the connection).</summary>
    public bool HasBegun => Volatile.Read(ref _begunAt) != 0;

    /// <summary>When the answer began to arrive (timestamp of the group's clock; 0 if it never did).</summary>
    public long BegunAt => Volatile.Read(ref _begunAt);

    /// <summary>The request's target for this attempt, behind this attempt.</summary>
    public IYencBodyTarget Wrap(IYencBodyTarget target)
    {
        _target = target;
        return this;
    }

    /// <summary>Hands the target back to its request once the attempt is over.</summary>
    public void EndTarget(bool succeeded)
    {
        if (_target is { } target)
        {
            _target = null;
            Request.OnAttemptEnded(target, succeeded);
        }
    }

    void IYencBodyTarget.Begin(YencHeader header)
    {
        var now = Worker.Time.GetTimestamp();
        Volatile.Write(ref _begunAt, now);
        Worker.MarkProgress(now);
        _target!.Begin(header);
    }

    Span<byte> IYencBodyTarget.GetSpan() => _target!.GetSpan();

    void IYencBodyTarget.Advance(int count)
    {
        _target!.Advance(count);
        Worker.MarkProgress();
    }

    void IYencBodyTarget.Complete(YencTrailer trailer) => _target!.Complete(trailer);
}

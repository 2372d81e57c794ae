using System.Text;

namespace NzbDav.Usenet.Nntp;

/// <summary>
/// One pipelined command and its caller. Its state decides what a caller's cancellation does:
/// while queued (answer not started) the caller is released at once and the answer is later read
/// and discarded; once its answer is being read, cancellation breaks the connection instead.
/// </summary>
internal abstract class NntpRequest(NntpCommandKind kind, string? messageId, IYencBodyTarget? target, CancellationToken callerToken)
{
    /// <summary>Longest command line we ever write: verb, a 250-character message-id, brackets, CRLF.</summary>
    public const int MaxCommandLength = 264;

    private const int Queued = 0;
    private const int Receiving = 1;
    private const int Cancelled = 2;
    private const int Done = 3;

    private int _state;

    public NntpCommandKind Kind { get; } = kind;

    /// <summary>Without angle brackets.</summary>
    public string? MessageId { get; } = messageId;

    public IYencBodyTarget? Target { get; } = target;

    public CancellationToken CallerToken { get; } = callerToken;

    /// <summary>When a BODY was queued on a session that keeps metrics (<c>Stopwatch</c> timestamp), else 0.</summary>
    public long QueuedAt { get; set; }

    /// <summary>The connection to notify when the caller cancels.</summary>
    public NntpConnection? Owner { get; set; }

    public bool IsReceiving => Volatile.Read(ref _state) == Receiving;

    public int WriteCommand(Span<byte> destination)
    {
        var verb = Kind switch
        {
            NntpCommandKind.Body => "BODY <"u8,
            NntpCommandKind.Stat => "STAT <"u8,
            _ => "QUIT"u8,
        };
        verb.CopyTo(destination);
        var n = verb.Length;
        if (MessageId is not null)
        {
            n += Encoding.ASCII.GetBytes(MessageId, destination[n..]);
            destination[n++] = (byte)'>';
        }
        destination[n++] = (byte)'\r';
        destination[n++] = (byte)'\n';
        return n;
    }

    /// <summary>The receive loop reached this request's answer; false if the caller already gave up on it.</summary>
    public bool TryStartReceiving() => Interlocked.CompareExchange(ref _state, Receiving, Queued) == Queued;

    /// <summary>Releases a caller whose answer has not started; false once it has.</summary>
    public bool TryCancelQueued()
    {
        if (Interlocked.CompareExchange(ref _state, Cancelled, Queued) != Queued)
        {
            return false;
        }
        SetCanceled(CallerToken);
        return true;
    }

    public void Fail(Exception error)
    {
        Volatile.Write(ref _state, Done);
        if (CallerToken.IsCancellationRequested)
        {
            SetCanceled(CallerToken);
        }
        else
        {
            SetException(error);
        }
    }

    protected void MarkDone() => Volatile.Write(ref _state, Done);

    protected abstract void SetCanceled(CancellationToken token);

    protected abstract void SetException(Exception error);
}

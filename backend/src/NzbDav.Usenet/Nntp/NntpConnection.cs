using System.IO.Pipelines;
using System.Net.Sockets;
using System.Threading.Channels;
using Microsoft.Extensions.Logging;
using NzbDav.Usenet.Metrics;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Nntp;

/// <summary>
/// One NNTP session that owns its socket, stream (TLS layered on), a <see cref="PipeReader"/> and
/// its state. Up to <see cref="PipelineDepth"/> commands are in flight: callers queue, a send loop
/// writes whatever is queued in one write, and a single receive loop reads the answers in order,
/// decoding BODY answers straight from the pipe's buffers into each caller's target.
/// <see cref="Break"/> is the only way the session becomes unusable.
/// </summary>
/// <remarks>
/// Cancellation: a caller cancelled before its answer started is released at once; its answer is
/// later read and discarded and the session stays usable. A caller cancelled while its answer is
/// being read breaks the session (the rest of the answer is never read) and gets an
/// <see cref="OperationCanceledException"/> once the receive loop has let go of its target.
/// </remarks>
public sealed partial class NntpConnection : INntpConnection
{
    private const int ReadBufferSize = 64 * 1024;

    private readonly UsenetProviderOptions _provider;
    private readonly TimeProvider _time;
    private readonly ILogger _logger;
    private readonly ProviderMetrics? _metrics;
    // Null when the session runs over a transport its caller connected (OpenAsync): no half-close or drain then.
    private readonly Socket? _socket;
    private readonly Stream _stream;
    private readonly PipeReader _reader;
    // SemaphoreSlim queues async waiters FIFO and wakes one per Release: fair slots.
    private readonly SemaphoreSlim _slots;
    private readonly Channel<NntpRequest> _sendQueue = Channel.CreateUnbounded<NntpRequest>(new UnboundedChannelOptions { SingleReader = true });
    private readonly Channel<NntpRequest> _receiveQueue = Channel.CreateUnbounded<NntpRequest>(new UnboundedChannelOptions { SingleReader = true });
    private readonly Lock _stateLock = new();
    private readonly CancellationTokenSource _shutdown = new();
    private readonly YencDecoder _decoder = new();
    private Exception? _breakReason;
    private bool _brokenByOwner;
    private Task _sendLoop = Task.CompletedTask;
    private Task _receiveLoop = Task.CompletedTask;
    private ITimer? _watchdog;
    // TimeProvider timestamp of the last byte received or the first request after idling.
    private long _lastProgressAt;
    private int _outstanding;
    private Traffic.TrafficAccount? _account;
    private IReceiveThrottle? _throttle;
    // Non-zero while the receive loop waits for its turn under a bandwidth cap: not the provider's silence.
    private int _throttled;
    // The account's counter for this provider, looked up once per account change, not per read.
    private (Traffic.TrafficAccount Account, System.Runtime.CompilerServices.StrongBox<long> Counter)? _accountCounter;

    private NntpConnection(UsenetProviderOptions provider, TimeProvider time, ILogger logger, ProviderMetrics? metrics, Socket? socket, Stream stream)
    {
        _provider = provider;
        _time = time;
        // The close deadline runs on the session's clock; created now, armed by StartCloseDeadline.
        _closeBudget = new CancellationTokenSource(Timeout.InfiniteTimeSpan, time);
        _logger = logger;
        _metrics = metrics;
        _socket = socket;
        _stream = stream;
        // A stream-backed reader with 64 KB segments: the receive loop decodes each read as it
        // arrives, so at most one read's worth is buffered and no pause threshold is needed (a
        // Pipe with a separate fill loop would only add a hop per segment).
        _reader = PipeReader.Create(new ReceiveCounter(stream, this), new StreamPipeReaderOptions(bufferSize: ReadBufferSize, minimumReadSize: ReadBufferSize / 4, leaveOpen: true));
        PipelineDepth = Math.Max(1, provider.PipelineDepth);
        _slots = new SemaphoreSlim(PipelineDepth, PipelineDepth);
    }

    /// <inheritdoc />
    public string ProviderName => _provider.Name;

    /// <inheritdoc />
    public int PipelineDepth { get; }

    /// <inheritdoc />
    public bool IsUsable => Volatile.Read(ref _breakReason) is null;

    /// <inheritdoc />
    public Exception? BreakReason => Volatile.Read(ref _breakReason);

    /// <inheritdoc />
    public bool BrokenByOwner => Volatile.Read(ref _brokenByOwner);

    /// <inheritdoc />
    public Traffic.TrafficAccount? Account
    {
        get => Volatile.Read(ref _account);
        set => Volatile.Write(ref _account, value);
    }

    /// <inheritdoc />
    public IReceiveThrottle? Throttle
    {
        get => Volatile.Read(ref _throttle);
        set => Volatile.Write(ref _throttle, value);
    }

    /// <summary>One socket read's bytes: to the provider's total and to the account the session works for now.</summary>
    private void CountReceived(int bytes)
    {
        _metrics?.Received(bytes);
        var account = Volatile.Read(ref _account);
        if (account is null)
        {
            return;
        }
        // Only the receive loop (and the connect before it) reads the socket: the cache needs no lock.
        if (_accountCounter is not { } cached || !ReferenceEquals(cached.Account, account))
        {
            cached = (account, account.CounterFor(ProviderName));
            _accountCounter = cached;
        }
        Interlocked.Add(ref cached.Counter.Value, bytes);
    }

    /// <inheritdoc />
    public Task<bool> StatAsync(string messageId, CancellationToken cancellationToken) =>
        ExecuteAsync(new NntpRequest<bool>(NntpCommandKind.Stat, NntpMessageId.Normalize(messageId), null, cancellationToken));

    /// <inheritdoc />
    public Task<YencHeader> BodyAsync(string messageId, IYencBodyTarget target, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(target);
        return ExecuteAsync(new NntpRequest<YencHeader>(NntpCommandKind.Body, NntpMessageId.Normalize(messageId), target, cancellationToken));
    }

    private async Task<T> ExecuteAsync<T>(NntpRequest<T> request)
    {
        var cancellationToken = request.CallerToken;
        cancellationToken.ThrowIfCancellationRequested();
        ThrowIfBroken();
        await _slots.WaitAsync(cancellationToken).ConfigureAwait(false);
        if (!TryEnqueue(request))
        {
            _slots.Release();
            throw BrokenFor(Volatile.Read(ref _breakReason)!);
        }
        request.Owner = this;
        using (cancellationToken.UnsafeRegister(static state => ((NntpRequest)state!).Owner!.OnCallerCancelled((NntpRequest)state), request))
        {
            return await request.Task.ConfigureAwait(false);
        }
    }

    /// <summary>Queues for both loops in one step, so send order and answer order are the same.</summary>
    private bool TryEnqueue(NntpRequest request)
    {
        lock (_stateLock)
        {
            if (_breakReason is not null)
            {
                return false;
            }
            if (_metrics is not null && request.Kind == NntpCommandKind.Body)
            {
                request.QueuedAt = System.Diagnostics.Stopwatch.GetTimestamp();
            }
            if (Interlocked.Increment(ref _outstanding) == 1)
            {
                // Time spent idle before this request must not count toward its deadline.
                MarkProgress();
            }
            _receiveQueue.Writer.TryWrite(request);
            _sendQueue.Writer.TryWrite(request);
            return true;
        }
    }

    /// <summary>Every request that was queued passes through here exactly once, when its answer is done with.</summary>
    private void Finish()
    {
        Interlocked.Decrement(ref _outstanding);
        _slots.Release();
    }

    private void OnCallerCancelled(NntpRequest request)
    {
        if (!request.TryCancelQueued() && request.IsReceiving)
        {
            Break(new NntpProtocolException($"An operation on '{ProviderName}' was cancelled while its answer was being read; the rest of that answer was never read."), quiet: true);
        }
    }

    private void MarkProgress() => Volatile.Write(ref _lastProgressAt, _time.GetTimestamp());

    /// <summary>
    /// Waits for the read's turn under a bandwidth cap. Meanwhile the watchdog does not count the
    /// silence (the provider is not the one holding back), and the wait ends as progress. A wait
    /// that fails settles what it had reserved.
    /// </summary>
    private async ValueTask WaitTurnAsync(IReceiveThrottle throttle, ValueTask turn)
    {
        Volatile.Write(ref _throttled, 1);
        try
        {
            await turn.ConfigureAwait(false);
        }
        catch
        {
            throttle.Received(0);
            throw;
        }
        finally
        {
            MarkProgress();
            Volatile.Write(ref _throttled, 0);
        }
    }

    private void ThrowIfBroken()
    {
        if (Volatile.Read(ref _breakReason) is { } reason)
        {
            throw BrokenFor(reason);
        }
    }
}

using System.Threading.Tasks.Sources;

namespace NzbDav.Usenet.Fetching;

/// <summary>
/// An auto-reset event for exactly one waiter, allocation-free after construction: <see cref="Set"/>
/// wakes the waiter if it is parked, or makes its next wait return at once. Setting an already set
/// signal does nothing, so producers may call it freely. Continuations never run inline on the
/// setter's thread (setters are NNTP receive loops that must not run a consumer's code).
/// </summary>
public sealed class AsyncSignal : IValueTaskSource
{
    private const int Idle = 0;
    private const int Waiting = 1;
    private const int Signalled = 2;

    private ManualResetValueTaskSourceCore<bool> _core = new() { RunContinuationsAsynchronously = true };
    private CancellationTokenRegistration _registration;
    private int _state;

    /// <summary>Wakes the waiter, or lets the next wait through.</summary>
    public void Set()
    {
        while (true)
        {
            switch (Volatile.Read(ref _state))
            {
                case Signalled:
                    return;
                case Idle when Interlocked.CompareExchange(ref _state, Signalled, Idle) == Idle:
                    return;
                case Waiting when Interlocked.CompareExchange(ref _state, Idle, Waiting) == Waiting:
                    _core.SetResult(true);
                    return;
            }
        }
    }

    /// <summary>Completes when <see cref="Set"/> is called (or was, since the last wait). One waiter at a time.</summary>
    public ValueTask WaitAsync(CancellationToken cancellationToken)
    {
        if (Interlocked.CompareExchange(ref _state, Idle, Signalled) == Signalled)
        {
            return ValueTask.CompletedTask;
        }
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled(cancellationToken);
        }
        _core.Reset();
        if (Interlocked.CompareExchange(ref _state, Waiting, Idle) != Idle)
        {
            // Set in between: consume it.
            Volatile.Write(ref _state, Idle);
            return ValueTask.CompletedTask;
        }
        if (cancellationToken.CanBeCanceled)
        {
            _registration = cancellationToken.UnsafeRegister(static (state, token) => ((AsyncSignal)state!).Cancel(token), this);
        }
        return new ValueTask(this, _core.Version);
    }

    private void Cancel(CancellationToken token)
    {
        if (Interlocked.CompareExchange(ref _state, Idle, Waiting) == Waiting)
        {
            _core.SetException(new OperationCanceledException(token));
        }
    }

    void IValueTaskSource.GetResult(short token)
    {
        // Unregister before the next wait can reuse the field; Dispose also waits out a running callback.
        _registration.Dispose();
        _registration = default;
        _core.GetResult(token);
    }

    ValueTaskSourceStatus IValueTaskSource.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);
}

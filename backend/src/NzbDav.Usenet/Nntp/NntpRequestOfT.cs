namespace NzbDav.Usenet.Nntp;

/// <summary>A pipelined command whose answer is a <typeparamref name="T"/>.</summary>
internal sealed class NntpRequest<T>(NntpCommandKind kind, string? messageId, IYencBodyTarget? target, CancellationToken callerToken)
    : NntpRequest(kind, messageId, target, callerToken)
{
    // Continuations run on the pool, never inline on the receive loop that completes them.
    private readonly TaskCompletionSource<T> _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public Task<T> Task => _completion.Task;

    public void Complete(T value)
    {
        MarkDone();
        _completion.TrySetResult(value);
    }

    protected override void SetCanceled(CancellationToken token) => _completion.TrySetCanceled(token);

    protected override void SetException(Exception error) => _completion.TrySetException(error);
}

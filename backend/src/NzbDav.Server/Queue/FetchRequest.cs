using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Server.Queue;

/// <summary>One article wanted by an ingestion: its message-id, a fresh target per attempt, and the caller's completion.</summary>
internal sealed class FetchRequest(string messageId, Func<IYencBodyTarget> newTarget)
{
    private readonly TaskCompletionSource<YencHeader> _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public string MessageId { get; } = messageId;

    public Func<IYencBodyTarget> NewTarget { get; } = newTarget;

    /// <summary>Attempts that ended with a broken connection; bounded so a bad article cannot loop.</summary>
    public int FailedAttempts { get; set; }

    public Task<YencHeader> Task => _completion.Task;

    public void Succeed(YencHeader header) => _completion.TrySetResult(header);

    public void Fail(Exception error) => _completion.TrySetException(error);

    public void Cancel(CancellationToken token) => _completion.TrySetCanceled(token);
}

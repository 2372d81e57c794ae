using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Tests.Providers;
using NzbDav.Usenet.Yenc;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Fetching;

/// <summary>What the fetch engine's tests submit and how they set up the fake providers.</summary>
internal static class FetchTestKit
{
    /// <summary>A session to "fast" left idle in its pool, so a gate set afterwards holds only bodies.</summary>
    public static async Task OpenIdleSessionAsync(ClientTestKit kit)
    {
        var lease = await kit.Client.AcquireAsync(OperationKind.Queue, Token);
        Assert.Equal("fast", lease.ProviderName);
        await lease.DisposeAsync();
    }

    public static BodyRequest Submit(FetchGroup group, string messageId, long order)
    {
        var request = new BodyRequest(messageId, order);
        group.Submit(request);
        return request;
    }
}

/// <summary>A BODY whose answer is the decoded bytes of the attempt that completed.</summary>
internal sealed class BodyRequest(string messageId, long order) : ArticleRequest(messageId, order)
{
    private readonly TaskCompletionSource<byte[]> _data = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private RecordingTarget? _winner;

    public Task<byte[]> Data => _data.Task.WaitAsync(TimeSpan.FromSeconds(10), Token);

    protected internal override bool IsWanted => !_data.Task.IsCompleted;

    protected internal override IYencBodyTarget CreateTarget() => new RecordingTarget();

    protected internal override void OnAttemptEnded(IYencBodyTarget target, bool succeeded)
    {
        if (succeeded)
        {
            _winner = (RecordingTarget)target;
        }
    }

    protected internal override void OnFound(YencHeader? header) => _data.TrySetResult([.. _winner!.Data]);

    protected internal override void OnFailed(Exception error) => _data.TrySetException(error);

    protected internal override void OnCancelled() => _data.TrySetCanceled();
}


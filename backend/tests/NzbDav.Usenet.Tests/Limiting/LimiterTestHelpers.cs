using System.Diagnostics.CodeAnalysis;
using NzbDav.Usenet.Limiting;

namespace NzbDav.Usenet.Tests.Limiting;

internal static class LimiterTestHelpers
{
    /// <summary>Acquires and asserts the fast path answered synchronously.</summary>
    [SuppressMessage("Reliability", "CA2012:Use ValueTasks correctly", Justification = "Result is read only after asserting the ValueTask completed.")]
    public static LimiterPermit TakeNow(this GlobalOperationLimiter limiter, OperationKind kind)
    {
        var pending = limiter.AcquireAsync(kind, TestContext.Current.CancellationToken);
        Assert.True(pending.IsCompletedSuccessfully, $"expected a free {kind} permit");
        return pending.Result;
    }

    /// <summary>Acquires and asserts the caller had to wait.</summary>
    public static Task<LimiterPermit> Wait(this GlobalOperationLimiter limiter, OperationKind kind, CancellationToken? token = null)
    {
        var pending = limiter.AcquireAsync(kind, token ?? TestContext.Current.CancellationToken);
        Assert.False(pending.IsCompleted, $"expected the {kind} request to wait");
        return pending.AsTask();
    }

    /// <summary>The permit of a wait that has already been granted (asserts it was).</summary>
    public static LimiterPermit Granted(this Task<LimiterPermit> waiter)
    {
        Assert.True(waiter.IsCompletedSuccessfully, "expected the waiter to have been granted");
        return waiter.Result;
    }

    /// <summary>The permit of an acquire that completed synchronously.</summary>
    public static LimiterPermit Now(this ValueTask<LimiterPermit> pending)
    {
        Assert.True(pending.IsCompletedSuccessfully, "expected the fast path");
        return pending.Result;
    }

    public static GlobalOperationLimiter Create(int total, int queue = 0, int health = 0) =>
        new(new LimiterOptions { TotalConnections = total, QueueGuarantee = queue, HealthCheckGuarantee = health });
}

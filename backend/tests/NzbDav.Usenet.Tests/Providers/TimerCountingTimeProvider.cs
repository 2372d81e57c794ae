using Microsoft.Extensions.Time.Testing;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>
/// A <see cref="FakeTimeProvider"/> that also counts its timers not yet disposed, so a test can move
/// the clock only while the code waits on it: a delay on the clock disposes its timer once it
/// fired, a periodic timer stays until its owner disposes it.
/// </summary>
internal sealed class TimerCountingTimeProvider : FakeTimeProvider
{
    private int _live;

    /// <summary>Timers created and not yet disposed.</summary>
    public int LiveTimers => Volatile.Read(ref _live);

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        Interlocked.Increment(ref _live);
        return new CountedTimer(this, base.CreateTimer(callback, state, dueTime, period));
    }

    private sealed class CountedTimer(TimerCountingTimeProvider owner, ITimer inner) : ITimer
    {
        private int _disposed;

        public bool Change(TimeSpan dueTime, TimeSpan period) => inner.Change(dueTime, period);

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _disposed, 1) == 0)
            {
                Interlocked.Decrement(ref owner._live);
            }

            inner.Dispose();
        }

        public ValueTask DisposeAsync()
        {
            Dispose();
            return ValueTask.CompletedTask;
        }
    }
}

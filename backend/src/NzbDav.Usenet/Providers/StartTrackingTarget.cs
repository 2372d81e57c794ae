using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Providers;

/// <summary>
/// Forwards to a caller's single target and remembers whether it received anything, so the client
/// retries elsewhere only while the target is still untouched.
/// </summary>
internal sealed class StartTrackingTarget(IYencBodyTarget inner) : IYencBodyTarget
{
    public bool Started { get; private set; }

    public void Begin(YencHeader header)
    {
        Started = true;
        inner.Begin(header);
    }

    public Span<byte> GetSpan() => inner.GetSpan();

    public void Advance(int count) => inner.Advance(count);

    public void Complete(YencTrailer trailer) => inner.Complete(trailer);
}

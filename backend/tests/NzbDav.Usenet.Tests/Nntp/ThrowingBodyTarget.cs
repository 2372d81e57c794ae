using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Nntp;

/// <summary>A target that refuses the article at <see cref="Begin"/>, like a reader that went away.</summary>
internal sealed class ThrowingBodyTarget : IYencBodyTarget
{
    public void Begin(YencHeader header) => throw new InvalidOperationException("target refuses");

    public Span<byte> GetSpan() => throw new InvalidOperationException("GetSpan after a refused Begin");

    public void Advance(int count) => throw new InvalidOperationException("Advance after a refused Begin");

    public void Complete(YencTrailer trailer) => throw new InvalidOperationException("Complete after a refused Begin");
}

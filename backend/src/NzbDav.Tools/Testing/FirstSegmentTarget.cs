using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Tools.Testing;

/// <summary>
/// Receives a file's first article only to learn its yEnc header (file size, part size): the
/// decoded bytes are counted and dropped, as ingestion does.
/// </summary>
internal sealed class FirstSegmentTarget : IYencBodyTarget
{
    private readonly byte[] _sink = new byte[64 * 1024];

    public YencHeader? Header { get; private set; }

    public long DecodedBytes { get; private set; }

    public bool Completed { get; private set; }

    public void Begin(YencHeader header) => Header = header;

    public Span<byte> GetSpan() => _sink;

    public void Advance(int count) => DecodedBytes += count;

    public void Complete(YencTrailer trailer) => Completed = true;
}

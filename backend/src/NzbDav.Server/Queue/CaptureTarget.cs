using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Server.Queue;

/// <summary>Keeps the first <c>limit</c> decoded bytes of an article and discards the rest.</summary>
internal sealed class CaptureTarget(int limit) : IYencBodyTarget
{
    private byte[] _buffer = [];
    private byte[]? _discard;
    private int _count;

    public YencHeader? Header { get; private set; }

    public bool Completed { get; private set; }

    public ReadOnlyMemory<byte> Captured => _buffer.AsMemory(0, _count);

    public void Begin(YencHeader header)
    {
        Header = header;
        _buffer = new byte[(int)Math.Min(limit, Math.Max(header.PartSize, 1))];
    }

    public Span<byte> GetSpan()
    {
        if (_count < _buffer.Length)
            return _buffer.AsSpan(_count);
        // Past the cap the decoder still needs somewhere to write; one reusable scratch buffer.
        return _discard ??= new byte[16 * 1024];
    }

    public void Advance(int count) => _count = Math.Min(_buffer.Length, _count + count);

    public void Complete(YencTrailer trailer) => Completed = true;
}

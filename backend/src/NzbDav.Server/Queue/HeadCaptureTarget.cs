using NzbDav.Archives.Entries;
using NzbDav.Archives.Release;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Server.Queue;

/// <summary>
/// Keeps the first 16 KiB of a first article (the PAR2 16k hash and every magic-byte check), or the
/// whole article when those bytes show an archive volume or a PAR2 file and the job's
/// <see cref="HeadBudget"/> allows: archive headers and PAR2 file descriptions then come from
/// memory instead of another round trip.
/// </summary>
internal sealed class HeadCaptureTarget(HeadBudget budget) : IYencBodyTarget
{
    private const int HeadBytes = Par2Hashes.QuickHashLength;

    private static ReadOnlySpan<byte> Par2Magic => "PAR2\0PKT"u8;

    private byte[] _buffer = [];
    private byte[]? _discard;
    private long _partSize;
    private int _count;
    private bool _decided;

    public ReadOnlyMemory<byte> Captured => _buffer.AsMemory(0, _count);

    public void Begin(YencHeader header)
    {
        _partSize = Math.Max(header.PartSize, 1);
        _buffer = new byte[(int)Math.Min(HeadBytes, _partSize)];
    }

    public Span<byte> GetSpan()
    {
        if (_count == _buffer.Length && !_decided)
        {
            _decided = true;
            Grow();
        }

        if (_count < _buffer.Length)
            return _buffer.AsSpan(_count);
        // Past what is kept the decoder still needs somewhere to write.
        return _discard ??= new byte[16 * 1024];
    }

    public void Advance(int count) => _count = Math.Min(_buffer.Length, _count + count);

    public void Complete(YencTrailer trailer)
    {
    }

    private void Grow()
    {
        var head = _buffer.AsSpan(0, _count);
        var wanted = ArchiveDetector.Detect(head) != ArchiveFormat.None || head.StartsWith(Par2Magic);
        if (!wanted || _partSize <= _buffer.Length || _partSize > int.MaxValue || !budget.TryReserve(_partSize - _buffer.Length))
            return;
        var whole = new byte[_partSize];
        head.CopyTo(whole);
        _buffer = whole;
    }
}

using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Nntp;

/// <summary>A body target that keeps the decoded bytes and tells when the first ones arrived.</summary>
internal sealed class RecordingBodyTarget : IYencBodyTarget
{
    private readonly TaskCompletionSource _firstAdvance = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly int _maxSpan;
    private byte[] _buffer = [];

    /// <param name="maxSpan">Largest span handed out, to exercise many GetSpan/Advance rounds.</param>
    public RecordingBodyTarget(int maxSpan = int.MaxValue) => _maxSpan = maxSpan;

    public YencHeader? Header { get; private set; }

    public YencTrailer? Trailer { get; private set; }

    public int Written { get; private set; }

    public int AdvanceCalls { get; private set; }

    public Task FirstAdvance => _firstAdvance.Task;

    public byte[] Data => _buffer.AsSpan(0, Written).ToArray();

    public void Begin(YencHeader header)
    {
        Assert.Null(Header);
        Header = header;
        _buffer = new byte[header.PartSize];
    }

    public Span<byte> GetSpan()
    {
        var span = _buffer.AsSpan(Written);
        return span.Length > _maxSpan ? span[.._maxSpan] : span;
    }

    public void Advance(int count)
    {
        Assert.InRange(count, 1, _buffer.Length - Written);
        Written += count;
        AdvanceCalls++;
        _firstAdvance.TrySetResult();
    }

    public void Complete(YencTrailer trailer)
    {
        Assert.Null(Trailer);
        Trailer = trailer;
    }
}

using System.Diagnostics.CodeAnalysis;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>Collects decoded bytes in small chunks, the way a streaming decoder delivers them.</summary>
[SuppressMessage("Design", "CA1001:Types that own disposable fields should be disposable",
    Justification = "A MemoryStream holds only a managed array: disposing it would free nothing.")]
internal sealed class RecordingTarget : IYencBodyTarget
{
    private readonly byte[] _chunk = new byte[64];
    private readonly MemoryStream _data = new();

    public YencHeader? Header { get; private set; }

    public bool Completed { get; private set; }

    public byte[] Data => _data.ToArray();

    public void Begin(YencHeader header) => Header = header;

    public Span<byte> GetSpan() => _chunk;

    public void Advance(int count) => _data.Write(_chunk, 0, count);

    public void Complete(YencTrailer trailer) => Completed = true;
}

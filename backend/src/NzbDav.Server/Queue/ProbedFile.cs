using NzbDav.Archives.Release;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Server.Queue;

/// <summary>An NZB file after its first article: yEnc header, leading bytes and kind.</summary>
public sealed record ProbedFile(int Index, NzbFile File, YencHeader Header, ReadOnlyMemory<byte> Head, ReleaseFileKind Kind)
{
    /// <summary>Decoded bytes per article (all but the last).</summary>
    public long PartSize => Header.Part is null ? Header.FileSize : Header.PartSize;

    /// <summary>The PAR2 16 KiB hash, when the first article holds enough of the file to compute it.</summary>
    public Hash16? First16KMd5 =>
        Head.Length >= Math.Min(Par2Hashes.QuickHashLength, Header.FileSize) ? Par2Hashes.First16KMd5(Head.Span, Header.FileSize) : null;
}

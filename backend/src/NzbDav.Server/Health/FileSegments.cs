using NzbDav.Data.Layout;

namespace NzbDav.Server.Health;

/// <summary>
/// The articles a library file reads, in file order, with the bytes of the file each one holds: a
/// plain file is every segment of its NZB file; a file inside archive volumes is, per volume, the
/// segments its byte range touches.
/// </summary>
public sealed class FileSegments
{
    private readonly string[] _ids;
    private readonly long[] _bytes;

    private FileSegments(string[] ids, long[] bytes, long length)
    {
        _ids = ids;
        _bytes = bytes;
        Length = length;
    }

    public int Count => _ids.Length;

    /// <summary>Bytes of the file.</summary>
    public long Length { get; }

    public IReadOnlyList<string> MessageIds => _ids;

    public string IdAt(int index) => _ids[index];

    /// <summary>Bytes of the file that segment <paramref name="index"/> holds.</summary>
    public long BytesAt(int index) => _bytes[index];

    public static FileSegments Of(DavFileLayout layout)
    {
        ArgumentNullException.ThrowIfNull(layout);
        var ids = new List<string>();
        var bytes = new List<long>();
        long length = 0;
        foreach (var part in layout.Parts)
        {
            if (part.RangeLength <= 0 || part.MessageIds.Count == 0)
                continue;
            var partSize = part.PartSize > 0 ? part.PartSize : part.FileSize;
            var end = part.RangeOffset + part.RangeLength;
            var first = (int)Math.Min(part.MessageIds.Count - 1, part.RangeOffset / Math.Max(1, partSize));
            var last = (int)Math.Min(part.MessageIds.Count - 1, (end - 1) / Math.Max(1, partSize));
            for (var i = first; i <= last; i++)
            {
                var segmentStart = i * partSize;
                var segmentEnd = i == part.MessageIds.Count - 1 ? part.FileSize : Math.Min(part.FileSize, segmentStart + partSize);
                ids.Add(part.MessageIds[i]);
                bytes.Add(Math.Max(0, Math.Min(end, segmentEnd) - Math.Max(part.RangeOffset, segmentStart)));
            }
            length += part.RangeLength;
        }
        return new FileSegments([.. ids], [.. bytes], length);
    }
}

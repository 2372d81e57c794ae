using System.Collections.ObjectModel;

namespace NzbDav.Usenet.Nzb;

/// <summary>A parsed NZB: its files in document order and its <c>&lt;head&gt;</c> metadata.</summary>
public sealed class NzbDocument
{
    /// <summary>Creates a document; <paramref name="files"/> and <paramref name="droppedFiles"/> are copied.</summary>
    public NzbDocument(IReadOnlyList<NzbFile> files, NzbMetadata meta, IReadOnlyList<NzbDroppedFile>? droppedFiles = null)
    {
        ArgumentNullException.ThrowIfNull(files);
        ArgumentNullException.ThrowIfNull(meta);
        Files = new ReadOnlyCollection<NzbFile>([.. files]);
        Meta = meta;
        DroppedFiles = droppedFiles is null or { Count: 0 }
            ? ReadOnlyCollection<NzbDroppedFile>.Empty
            : new ReadOnlyCollection<NzbDroppedFile>([.. droppedFiles]);
    }

    /// <summary>The usable <c>&lt;file&gt;</c> elements in document order.</summary>
    public IReadOnlyList<NzbFile> Files { get; }

    /// <summary>
    /// <c>&lt;file&gt;</c> elements left out because nothing of them can be fetched (no segments,
    /// or only malformed ones), each with the reason, in document order.
    /// </summary>
    public IReadOnlyList<NzbDroppedFile> DroppedFiles { get; }

    /// <summary>Name, category, passwords and every other <c>&lt;meta&gt;</c> entry.</summary>
    public NzbMetadata Meta { get; }

    /// <summary>Sum of <see cref="NzbFile.EncodedBytes"/> over all files.</summary>
    public long EncodedBytes
    {
        get
        {
            long total = 0;
            foreach (var file in Files)
                total += file.EncodedBytes;
            return total;
        }
    }
}

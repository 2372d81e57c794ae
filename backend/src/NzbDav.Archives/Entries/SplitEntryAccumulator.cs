namespace NzbDav.Archives.Entries;

/// <summary>
/// Joins the per-volume pieces of split entries into whole entries, refusing sets whose pieces do
/// not line up (a missing or misordered volume must never produce a silently shorter file).
/// </summary>
internal sealed class SplitEntryAccumulator(string format)
{
    private readonly List<ArchiveEntry> _entries = [];
    private readonly List<ArchiveByteRange> _pendingRanges = [];
    private StoredPiece? _pending;

    public void Add(StoredPiece piece)
    {
        if (piece.ContinuedFromPrevious)
        {
            if (_pending is not { } open || open.Path != piece.Path)
            {
                throw new ArchiveFormatException($"{format} volume {piece.Range.VolumeIndex + 1} continues '{piece.Path}' but the previous volume did not end with it: volumes are missing or out of order");
            }
        }
        else
        {
            if (_pending is { } open)
            {
                throw new ArchiveFormatException($"{format} entry '{open.Path}' continues in the next volume, but volume {piece.Range.VolumeIndex + 1} starts '{piece.Path}' instead: volumes are missing or out of order");
            }

            _pending = piece;
            _pendingRanges.Clear();
        }

        if (piece.Range.Length > 0)
        {
            _pendingRanges.Add(piece.Range);
        }

        if (!piece.ContinuesInNext)
        {
            Finish();
        }
    }

    public IReadOnlyList<ArchiveEntry> Complete()
    {
        if (_pending is { } open)
        {
            throw new ArchiveFormatException($"{format} entry '{open.Path}' continues past the last volume: volumes are missing");
        }

        return _entries;
    }

    private void Finish()
    {
        var first = _pending!.Value;
        _pending = null;
        long stored = 0;
        foreach (var range in _pendingRanges)
        {
            stored += range.Length;
        }

        var expected = first.IsDirectory ? 0 : first.Encryption is null ? first.Size : (first.Size + 15) & ~15L;
        if (stored != expected)
        {
            throw new ArchiveFormatException($"{format} entry '{first.Path}' stores {stored} bytes but {expected} are expected for {first.Size} bytes of content");
        }

        _entries.Add(new ArchiveEntry
        {
            Path = first.Path,
            Size = first.IsDirectory ? 0 : first.Size,
            IsDirectory = first.IsDirectory,
            Modified = first.Modified,
            Ranges = first.IsDirectory ? [] : [.. _pendingRanges],
            Encryption = first.Encryption,
        });
    }
}

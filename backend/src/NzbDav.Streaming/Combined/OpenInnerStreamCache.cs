namespace NzbDav.Streaming.Combined;

/// <summary>
/// The few open inner streams of one <see cref="CombinedStream"/>, most recently used first. An
/// entry is removed from the cache BEFORE its stream is disposed, and a stream is only ever found
/// through the cache, so a disposed inner stream can never be handed out again. Not thread-safe:
/// the combined stream serializes its operations.
/// </summary>
internal sealed class OpenInnerStreamCache(int capacity)
{
    // Tiny (a handful of entries): a list scanned linearly beats any dictionary here.
    private readonly List<OpenInnerStream> _entries = new(capacity + 1);

    public int Count => _entries.Count;

    /// <summary>Finds the open stream of a part and marks it most recently used.</summary>
    public OpenInnerStream? Find(int partIndex)
    {
        for (var i = 0; i < _entries.Count; i++)
        {
            var entry = _entries[i];
            if (entry.PartIndex == partIndex)
            {
                if (i != 0)
                {
                    _entries.RemoveAt(i);
                    _entries.Insert(0, entry);
                }

                return entry;
            }
        }

        return null;
    }

    /// <summary>Adds a newly opened stream; returns the least recently used one if that pushed the cache past capacity.</summary>
    public OpenInnerStream? Add(OpenInnerStream entry)
    {
        _entries.Insert(0, entry);
        if (_entries.Count <= capacity)
        {
            return null;
        }

        var evicted = _entries[^1];
        _entries.RemoveAt(_entries.Count - 1);
        return evicted;
    }

    /// <summary>Forgets an entry (its stream is about to be disposed). False if it was not cached.</summary>
    public bool Remove(OpenInnerStream entry) => _entries.Remove(entry);

    /// <summary>Forgets every entry and returns them, for disposal.</summary>
    public OpenInnerStream[] RemoveAll()
    {
        var all = _entries.ToArray();
        _entries.Clear();
        return all;
    }
}

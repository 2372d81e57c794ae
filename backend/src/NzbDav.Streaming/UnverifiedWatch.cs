namespace NzbDav.Streaming;

/// <summary>
/// Buffers the reader returned bytes from and then left (a seek) before their CRC was known. If one
/// of them later proves corrupt, the next read says so instead of the stream staying silent about
/// bytes it already handed out. Reader-owned; holds a reference on each buffer until it is settled.
/// </summary>
internal sealed class UnverifiedWatch
{
    // Parts verify within moments of their last byte; this only bounds a reader that seeks far faster.
    private const int Capacity = 16;

    private readonly List<(SegmentBuffer Buffer, int Number, string MessageId)> _entries = [];

    /// <summary>Takes over the caller's reference on <paramref name="buffer"/>.</summary>
    public void Watch(SegmentBuffer buffer, int number, string messageId)
    {
        if (_entries.Count == Capacity)
        {
            _entries[0].Buffer.Release();
            _entries.RemoveAt(0);
        }
        _entries.Add((buffer, number, messageId));
    }

    /// <summary>Forgets settled buffers; throws for one that received all its bytes and then failed its check.</summary>
    public void ThrowIfAnyProvedCorrupt()
    {
        for (var i = _entries.Count - 1; i >= 0; i--)
        {
            var (buffer, number, messageId) = _entries[i];
            if (!buffer.IsCompleted && !buffer.IsFailed)
            {
                continue;
            }
            _entries.RemoveAt(i);
            // Failed with every byte received means the size or CRC check failed; failed earlier
            // means the transfer was cut, and what arrived (and was returned) was not in question.
            var corrupt = buffer.IsFailed && buffer.Written == buffer.Size;
            buffer.Release();
            if (corrupt)
            {
                throw new SegmentUnavailableException(number, messageId,
                    "bytes of it returned by an earlier read, before its CRC could be checked, turned out corrupt");
            }
        }
    }

    public void Clear()
    {
        foreach (var entry in _entries)
        {
            entry.Buffer.Release();
        }
        _entries.Clear();
    }
}

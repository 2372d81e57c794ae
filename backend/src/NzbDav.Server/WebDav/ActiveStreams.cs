using System.Collections.Concurrent;
using NzbDav.Streaming;

namespace NzbDav.Server.WebDav;

/// <summary>The file GETs being served now, for the UI's dashboard. One entry per response body.</summary>
public sealed class ActiveStreams
{
    private readonly ConcurrentDictionary<long, ServedBody> _streams = new();
    private long _nextId;

    /// <summary>Registers a body about to be sent; dispose the result when it ends.</summary>
    public ServedBody Start(string path, string? client, long from, long length, long fileSize, IReadAheadSource? readAhead = null)
    {
        var stream = new ServedBody(this, Interlocked.Increment(ref _nextId), path, client, from, length, fileSize, DateTimeOffset.UtcNow, readAhead);
        _streams[stream.Id] = stream;
        return stream;
    }

    /// <summary>The bodies being sent now.</summary>
    public ICollection<ServedBody> Current => _streams.Values;

    internal void End(ServedBody stream) => _streams.TryRemove(stream.Id, out _);
}

/// <summary>
/// One response body being sent: which file, to whom, and how far. <see cref="Sent"/> moves once per
/// copy (about 64 KiB), by the one task that sends the body.
/// </summary>
public sealed class ServedBody : IDisposable
{
    private readonly ActiveStreams _owner;
    private long _sent;

    private readonly IReadAheadSource? _readAhead;

    internal ServedBody(ActiveStreams owner, long id, string path, string? client, long from, long length, long fileSize, DateTimeOffset started, IReadAheadSource? readAhead)
    {
        _owner = owner;
        _readAhead = readAhead;
        Id = id;
        Path = path;
        Client = client;
        From = from;
        Length = length;
        FileSize = fileSize;
        Started = started;
    }

    public long Id { get; }

    public string Path { get; }

    public string? Client { get; }

    public long From { get; }

    public long Length { get; }

    public long FileSize { get; }

    public DateTimeOffset Started { get; }

    /// <summary>Bytes fetched ahead of the reader and held for it now; null when the source cannot say (a decrypting stream).</summary>
    public long? ReadAheadBytes => _readAhead?.BytesAhead;

    /// <summary>Decoded bytes fetched from providers for this body so far; null when the source cannot say.</summary>
    public long? FetchedBytes => _readAhead?.BytesFetched;

    /// <summary>Decoded bytes taken from the segment cache or another stream's fetch instead; null when the source cannot say.</summary>
    public long? SharedBytes => _readAhead?.BytesShared;

    /// <summary>Bytes of the body sent so far.</summary>
    public long Sent => Volatile.Read(ref _sent);

    internal void Advance(int bytes) => Volatile.Write(ref _sent, _sent + bytes);

    public void Dispose() => _owner.End(this);
}

using System.Collections.Concurrent;
using NzbDav.Streaming;
using NzbDav.Usenet.Traffic;

namespace NzbDav.Server.WebDav;

/// <summary>The file GETs being served now, for the UI's dashboard. One entry per response body.</summary>
public sealed class ActiveStreams
{
    // Bounded: the traffic ledger takes them every minute; a burst beyond this (tens of thousands of
    // probes in a minute) loses only the top-files view of the excess, never a byte count.
    private const int MaxFinished = 50_000;

    private readonly ConcurrentDictionary<long, ServedBody> _streams = new();
    private readonly ConcurrentQueue<ServedBody> _finished = new();
    private long _nextId;

    /// <summary>Registers a body about to be sent; dispose the result when it ends. <paramref name="traffic"/> says who asked (for the traffic ledger).</summary>
    public ServedBody Start(string path, string? client, long from, long length, long fileSize, IReadAheadSource? readAhead = null, RequestTraffic? traffic = null)
    {
        var stream = new ServedBody(this, Interlocked.Increment(ref _nextId), path, client, from, length, fileSize, DateTimeOffset.UtcNow, readAhead, traffic);
        _streams[stream.Id] = stream;
        return stream;
    }

    /// <summary>The bodies being sent now.</summary>
    public ICollection<ServedBody> Current => _streams.Values;

    /// <summary>Takes the bodies that ended since the last call (the traffic ledger's per-file counts).</summary>
    public IReadOnlyList<ServedBody> TakeFinished()
    {
        var taken = new List<ServedBody>();
        while (_finished.TryDequeue(out var body))
            taken.Add(body);
        return taken;
    }

    internal void End(ServedBody stream)
    {
        if (!_streams.TryRemove(stream.Id, out _))
            return;
        if (_finished.Count < MaxFinished)
            _finished.Enqueue(stream);
    }
}

/// <summary>
/// One response body being sent: which file, to whom, and how far. <see cref="Sent"/> moves once per
/// copy (about 64 KiB), by the one task that sends the body.
/// </summary>
public sealed class ServedBody : IDisposable
{
    private readonly ActiveStreams _owner;
    private long _sent;

    // Dropped when the body ends: the traffic ledger keeps ended bodies up to a minute, and a
    // reference to the stream would keep its whole fetch state (and its buffers) alive that long.
    private IReadAheadSource? _readAhead;
    private long? _fetchedAtEnd;
    private long? _sharedAtEnd;

    internal ServedBody(ActiveStreams owner, long id, string path, string? client, long from, long length, long fileSize, DateTimeOffset started, IReadAheadSource? readAhead, RequestTraffic? traffic)
    {
        _owner = owner;
        _readAhead = readAhead;
        Traffic = traffic;
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
    public long? ReadAheadBytes => Volatile.Read(ref _readAhead)?.BytesAhead;

    /// <summary>Decoded bytes fetched from providers for this body so far; null when the source cannot say.</summary>
    public long? FetchedBytes => Volatile.Read(ref _readAhead) is { } source ? source.BytesFetched : _fetchedAtEnd;

    /// <summary>Decoded bytes taken from the segment cache or another stream's fetch instead; null when the source cannot say.</summary>
    public long? SharedBytes => Volatile.Read(ref _readAhead) is { } source ? source.BytesShared : _sharedAtEnd;

    /// <summary>Bytes of the body sent so far.</summary>
    public long Sent => Volatile.Read(ref _sent);

    /// <summary>Who asked, and the account its provider bytes go to (null when not counted).</summary>
    public RequestTraffic? Traffic { get; }

    internal void Advance(int bytes) => Volatile.Write(ref _sent, _sent + bytes);

    public void Dispose()
    {
        if (Volatile.Read(ref _readAhead) is { } source)
        {
            _fetchedAtEnd = source.BytesFetched;
            _sharedAtEnd = source.BytesShared;
            Volatile.Write(ref _readAhead, null);
        }
        _owner.End(this);
    }
}

/// <summary>One GET's traffic: its own account (what its streams read from providers), the client's User-Agent and who it was let in as.</summary>
public sealed record RequestTraffic(TrafficAccount Account, string? UserAgent, string? User);

using System.Collections.Concurrent;
using System.Runtime.CompilerServices;

namespace NzbDav.Usenet.Traffic;

/// <summary>
/// The bytes one consumer caused: received from each provider (as they came off the socket, the
/// whole NNTP answer: status lines, yEnc encoding and all, what the provider itself counts) and
/// served to the consumer. A session leased for the consumer adds to it once per socket read;
/// totals only grow, and whoever keeps a ledger takes their differences.
/// </summary>
public sealed class TrafficAccount
{
    private readonly ConcurrentDictionary<string, StrongBox<long>> _received = new(StringComparer.Ordinal);
    private long _served;

    /// <param name="consumer">Who, as far as known now (one request's account is named when its ledger sees how it read).</param>
    public TrafficAccount(string consumer) => Consumer = consumer;

    /// <summary>Who: a client and how it read ("Plex Media Server · probe"), or "queue", "health check".</summary>
    public string Consumer { get; }

    /// <summary>Bytes served to the consumer so far.</summary>
    public long Served => Interlocked.Read(ref _served);

    /// <summary>Bytes received from each provider so far.</summary>
    public IReadOnlyList<KeyValuePair<string, long>> Received() =>
        [.. _received.Select(p => new KeyValuePair<string, long>(p.Key, Interlocked.Read(ref p.Value.Value)))];

    public void AddServed(long bytes) => Interlocked.Add(ref _served, bytes);

    /// <summary>The counter of one provider's bytes (a session keeps it for as long as it works for this account).</summary>
    internal StrongBox<long> CounterFor(string provider) => _received.GetOrAdd(provider, static _ => new StrongBox<long>());
}

using System.Collections.Concurrent;
using NzbDav.Usenet.Limiting;

namespace NzbDav.Usenet.Traffic;

/// <summary>
/// Every <see cref="TrafficAccount"/> of one client, one per consumer name. Work leased without a
/// consumer of its own goes to the account of its kind: "queue", "health check", "streaming".
/// </summary>
public sealed class TrafficAccounts
{
    public const string Queue = "queue";
    public const string HealthCheck = "health check";
    public const string Streaming = "streaming";

    private readonly ConcurrentDictionary<string, TrafficAccount> _accounts = new(StringComparer.Ordinal);

    /// <summary>The account of <paramref name="consumer"/>, made on first use.</summary>
    public TrafficAccount For(string consumer)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(consumer);
        return _accounts.GetOrAdd(consumer, static name => new TrafficAccount(name));
    }

    /// <summary>The account of work of <paramref name="kind"/> that names no consumer.</summary>
    public TrafficAccount For(OperationKind kind) => For(kind switch
    {
        OperationKind.Queue => Queue,
        OperationKind.HealthCheck => HealthCheck,
        _ => Streaming,
    });

    /// <summary>Every account so far.</summary>
    public IReadOnlyList<TrafficAccount> All => [.. _accounts.Values];
}

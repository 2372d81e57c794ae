namespace NzbDav.Server.Cluster;

/// <summary>What one node asked of one provider at its last lease step: sessions held or waited for, by kind.</summary>
/// <param name="Hungry">It had callers waiting beyond its lease: what it could use is more than it could show.</param>
public readonly record struct LeaseDemand(Guid Node, int Streaming, int Queue, int Health, bool Hungry)
{
    public int Total => Streaming + Queue + Health;
}

/// <summary>
/// How a provider's cap is divided among the live nodes. Every node computes it from the same rows, so
/// they agree on the targets; each then moves its own lease towards its target as far as the others'
/// current leases allow. Order of precedence: one session for every node (a stream can start anywhere
/// without waiting for a rebalance), then streaming demand, then ingestion, then health checks — each
/// shared max-min fairly (nobody gets more until everyone with less demand has all of theirs) — then
/// what is left goes to the nodes that have callers waiting beyond their lease (their real demand is
/// more than they could show), or, when none has, evenly to all, so an idle node keeps sessions ready.
/// </summary>
public static class LeaseAllocation
{
    /// <summary>The target lease of each of <paramref name="nodes"/> (same order) out of <paramref name="cap"/> sessions.</summary>
    public static int[] Allocate(int cap, IReadOnlyList<LeaseDemand> nodes)
    {
        ArgumentNullException.ThrowIfNull(nodes);
        var targets = new int[nodes.Count];
        if (nodes.Count == 0 || cap <= 0)
            return targets;

        // Ties go the same way on every node: by id.
        var order = Enumerable.Range(0, nodes.Count).OrderBy(i => nodes[i].Node).ToArray();
        var left = cap;
        // The first session: busiest nodes first when there are fewer sessions than nodes.
        foreach (var i in order.OrderByDescending(i => nodes[i].Total).ThenBy(i => nodes[i].Node))
        {
            if (left == 0)
                break;
            targets[i] = 1;
            left--;
        }

        left = Fill(targets, order, left, i => nodes[i].Streaming);
        left = Fill(targets, order, left, i => nodes[i].Streaming + nodes[i].Queue);
        left = Fill(targets, order, left, i => nodes[i].Total);
        var hungry = order.Where(i => nodes[i].Hungry).ToArray();
        Fill(targets, hungry.Length > 0 ? hungry : order, left, static _ => int.MaxValue);
        return targets;
    }

    /// <summary>Raises targets towards <paramref name="want"/> one round at a time (max-min fair); answers what is left.</summary>
    private static int Fill(int[] targets, int[] order, int left, Func<int, int> want)
    {
        while (left > 0)
        {
            var given = false;
            foreach (var i in order)
            {
                if (left == 0)
                    break;
                if (targets[i] < want(i))
                {
                    targets[i]++;
                    left--;
                    given = true;
                }
            }

            if (!given)
                break;
        }

        return left;
    }
}

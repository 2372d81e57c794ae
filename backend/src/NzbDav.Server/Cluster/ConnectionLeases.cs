using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Cluster;

/// <summary>
/// Keeps this node's provider leases in step with the cluster's (PostgreSQL only). A lease step, under
/// one advisory lock for the whole library, reads every node's row for each provider, computes the
/// targets (<see cref="LeaseAllocation"/>), and moves this node's lease towards its target without
/// ever letting the leases add up to more than the provider's cap: it raises its own only into
/// headroom nobody holds (written first, applied to the pools after the commit), and lowers it by
/// capping its pools first and writing the larger of the new lease and the sessions still open, so
/// the row never says less than what the provider sees from it. Steps run at every heartbeat, at once
/// when callers wait beyond the lease, when settings change, and when another node asks by
/// notification; a node whose lease went down tells the others, so the headroom is taken at once.
/// A node that stops beating loses its rows with its node row (<see cref="Queue.JobClaims.ReclaimAsync"/>);
/// its sessions died with it.
/// </summary>
public sealed class ConnectionLeases(
    ProviderLeaseState state,
    IDbContextFactory<NzbDavDbContext> contextFactory,
    ClusterNode node,
    ClusterNotifications notifications,
    UsenetClient client,
    GlobalOperationLimiter limiter,
    IOptionsMonitor<UsenetOptions> usenet,
    IOptionsMonitor<ClusterOptions> cluster,
    TimeProvider time,
    ILogger<ConnectionLeases> logger) : BackgroundService
{
    /// <summary>The advisory lock every lease step of the library takes, one at a time, a few milliseconds each (the key is "NzbDLeas").</summary>
    private const string LockSql = "SELECT pg_advisory_xact_lock(5654940327596089715)";

    private static readonly TimeSpan Probe = TimeSpan.FromMilliseconds(100);
    private static readonly TimeSpan HungryStep = TimeSpan.FromMilliseconds(250);

    private bool _draining;
    private bool _failing;
    private bool _shortOfTarget;

    public override async Task StartAsync(CancellationToken cancellationToken)
    {
        if (state.Leasing)
        {
            // Before the queue and the web server: the node serves with the sessions it was given, never more.
            await StepAsync(cancellationToken);
            // The queue may start before the settings' watcher: the pools get their caps now.
            client.Reconfigure(state.Effective(usenet.CurrentValue));
            logger.LogInformation("Node {NodeName} holds provider leases {Leases}", node.Name, Describe(state.Grants));
        }

        await base.StartAsync(cancellationToken);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (!state.Leasing)
            return;
        var last = time.GetTimestamp();
        while (!stoppingToken.IsCancellationRequested)
        {
            var requested = state.StepRequested;
            try
            {
                await requested.WaitAsync(Probe, time, stoppingToken);
            }
            catch (TimeoutException)
            {
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }

            var since = time.GetElapsedTime(last);
            // Waiting callers call for a step only while the last one left this node short of its
            // target: at its target (alone, it holds the whole cap) another step cannot give it more,
            // and the others say when they free sessions.
            var due = requested.IsCompleted || _draining || since >= cluster.CurrentValue.HeartbeatInterval
                || (since >= HungryStep && _shortOfTarget && Hungry());
            if (!due)
                continue;
            last = time.GetTimestamp();
            try
            {
                await StepAsync(stoppingToken);
                if (_failing)
                    logger.LogInformation("Node {NodeName} can adjust its provider leases again", node.Name);
                _failing = false;
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception ex) when (ex is System.Data.Common.DbException or DbUpdateException or InvalidOperationException or TimeoutException)
            {
                // The leases stay as they are: nobody can take this node's share without the database either.
                if (!_failing)
                    logger.LogWarning("Node {NodeName} cannot adjust its provider leases ({Reason}); it keeps the ones it holds", node.Name, ex.Message);
                _failing = true;
            }
        }
    }

    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        await base.StopAsync(cancellationToken);
        if (!state.Leasing)
            return;
        // Sessions first, then the rows: another node may use the share once the row is gone. The
        // settings' watcher has stopped already: the pools are capped here.
        state.Set(state.Grants.ToDictionary(g => g.Key, _ => 0, StringComparer.OrdinalIgnoreCase));
        try
        {
            client.Reconfigure(state.Effective(usenet.CurrentValue));
        }
        catch (ObjectDisposedException)
        {
        }

        var deadline = time.GetTimestamp();
        while (usenet.CurrentValue.Providers.Sum(p => client.OpenSessions(p.Name)) > 0 && time.GetElapsedTime(deadline) < TimeSpan.FromSeconds(3))
            await Task.Delay(TimeSpan.FromMilliseconds(20), time, CancellationToken.None);
        try
        {
            await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
            await context.ProviderLeases.Where(l => l.NodeId == node.Id).ExecuteDeleteAsync(cancellationToken);
            notifications.Publish(ClusterNotifications.LeasesTopic);
        }
        catch (Exception ex) when (ex is System.Data.Common.DbException or InvalidOperationException or OperationCanceledException)
        {
            logger.LogWarning("Node {NodeName} could not give back its provider leases ({Reason}); they go with its heartbeat", node.Name, ex.Message);
        }
    }

    /// <summary>Whether callers wait for a session beyond what the leases allow now.</summary>
    private bool Hungry()
    {
        if (limiter.HasWaiters(OperationKind.Streaming) || limiter.HasWaiters(OperationKind.Queue) || limiter.HasWaiters(OperationKind.HealthCheck)
            || client.Shortfall(OperationKind.Streaming) + client.Shortfall(OperationKind.Queue) + client.Shortfall(OperationKind.HealthCheck) > 0)
        {
            return true;
        }

        foreach (var status in client.GetProviderStatus())
        {
            if (status.Pool.Waiters > 0)
                return true;
        }

        return false;
    }

    /// <summary>One lease step for every provider; see the class summary.</summary>
    internal async Task StepAsync(CancellationToken cancellationToken)
    {
        var configured = usenet.CurrentValue;
        var providers = configured.Providers.Where(p => p.Enabled).ToList();
        var budgetProviders = BudgetProviders(providers);
        var budget = budgetProviders.Sum(p => p.MaxConnections);
        var stats = limiter.GetStats();
        var poolStats = client.GetProviderStatus().ToDictionary(s => s.Name, s => s.Pool, StringComparer.OrdinalIgnoreCase);
        var current = state.Grants;
        var now = time.GetUtcNow().UtcDateTime;

        var lowered = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);
        var raised = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);
        var shortOfTarget = false;
        var gaveBack = false;
        var draining = false;

        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        await using var transaction = await context.Database.BeginTransactionAsync(cancellationToken);
        await context.Database.ExecuteSqlRawAsync(LockSql, cancellationToken);
        // A node silent past the timeout is gone: its rows go now (with its leases), not at the next
        // heartbeat, so the sessions it held are another's within a step. Its jobs follow at the
        // next heartbeat's reclaim, which finds them held by no live node.
        var cutoff = now - cluster.CurrentValue.NodeTimeout;
        var self = node.Id;
        var gone = await context.Nodes.Where(n => n.HeartbeatAt < cutoff && n.Id != self).ExecuteDeleteAsync(cancellationToken);
        if (gone > 0)
            logger.LogWarning("{Nodes} node(s) stopped writing their heartbeat for {Timeout}: removed, their provider leases free", gone, cluster.CurrentValue.NodeTimeout);
        var rows = await context.ProviderLeases.ToListAsync(cancellationToken);
        var mine = rows.Where(r => r.NodeId == node.Id).ToDictionary(r => r.Provider, StringComparer.OrdinalIgnoreCase);

        var demands = new Dictionary<string, LeaseDemand>(StringComparer.OrdinalIgnoreCase);
        foreach (var provider in providers)
        {
            var demand = DemandFor(provider, budgetProviders.Contains(provider), budget, stats, poolStats.GetValueOrDefault(provider.Name));
            demands[provider.Name] = demand;
            var others = rows.Where(r => r.NodeId != node.Id && string.Equals(r.Provider, provider.Name, StringComparison.OrdinalIgnoreCase)).ToList();
            var nodes = others.Select(r => new LeaseDemand(r.NodeId, r.StreamingDemand, r.QueueDemand, r.HealthDemand, r.StreamingDemand + r.QueueDemand + r.HealthDemand > r.Granted))
                .Append(demand).ToList();
            var target = LeaseAllocation.Allocate(provider.MaxConnections, nodes)[^1];
            var headroom = provider.MaxConnections - others.Sum(r => r.Granted);
            var next = Math.Max(0, Math.Min(target, headroom));
            shortOfTarget |= next < target && demand.Hungry;
            var held = current.GetValueOrDefault(provider.Name);
            if (next < held)
                lowered[provider.Name] = next;
            else if (next > held)
                raised[provider.Name] = next;
        }

        // Providers switched off or removed here: their leases go to 0 like any other cut.
        foreach (var (provider, held) in current)
        {
            if (held > 0 && !demands.ContainsKey(provider))
                lowered[provider] = 0;
        }

        // A cut takes effect on the pools before the row says less (the provider must never see more than the rows allow).
        if (lowered.Count > 0)
            state.Set(lowered);

        foreach (var provider in demands.Keys.Concat(lowered.Keys).Distinct(StringComparer.OrdinalIgnoreCase))
        {
            var granted = raised.TryGetValue(provider, out var up) ? up : state.Granted(provider);
            var open = client.OpenSessions(provider);
            var written = Math.Max(granted, open);
            draining |= written > granted;
            var demand = demands.GetValueOrDefault(provider);
            if (mine.TryGetValue(provider, out var row))
            {
                gaveBack |= written < row.Granted;
                mine.Remove(provider);
            }
            else
            {
                row = new ProviderLeaseRecord { NodeId = node.Id, Provider = provider };
                context.ProviderLeases.Add(row);
            }

            row.Granted = written;
            row.StreamingDemand = demand.Streaming;
            row.QueueDemand = demand.Queue;
            row.HealthDemand = demand.Health;
            row.Open = open;
            row.UpdatedAt = now;
        }

        // Rows of providers this node no longer has and holds nothing of.
        foreach (var stale in mine.Values.Where(r => client.OpenSessions(r.Provider) == 0))
            context.ProviderLeases.Remove(stale);

        await context.SaveChangesAsync(cancellationToken);
        await transaction.CommitAsync(cancellationToken);
        if (raised.Count > 0)
            state.Set(raised);
        _draining = draining;
        _shortOfTarget = shortOfTarget;
        // Sessions given back, wanted, or freed by a node found gone: every node steps now.
        if (gaveBack || shortOfTarget || gone > 0)
            notifications.Publish(ClusterNotifications.LeasesTopic);
    }

    /// <summary>The providers whose caps make the limiter's budget (see <see cref="LimiterOptions.BudgetOf"/>).</summary>
    private static List<UsenetProviderOptions> BudgetProviders(List<UsenetProviderOptions> providers)
    {
        foreach (var role in (ProviderRole[])[ProviderRole.Primary, ProviderRole.BackupOnly, ProviderRole.Block])
        {
            var ofRole = providers.Where(p => p.Role == role).ToList();
            if (ofRole.Count > 0)
                return ofRole;
        }

        return [];
    }

    /// <summary>
    /// What this node asks of <paramref name="provider"/>: for the providers that make the budget, the
    /// limiter's permits held and waited for by kind plus what its fetch groups would use beyond the
    /// budget (<see cref="UsenetClient.Shortfall"/>), in the provider's share of the budget; for the
    /// others (backups, block accounts, used instead of a primary), its pool's sessions lent and waited for.
    /// </summary>
    private LeaseDemand DemandFor(UsenetProviderOptions provider, bool inBudget, int budget, LimiterStats stats, ConnectionPoolStats pool)
    {
        if (!inBudget || budget == 0)
            return new LeaseDemand(node.Id, pool.InUse + pool.Waiters, 0, 0, pool.Waiters > 0);
        double share = (double)provider.MaxConnections / budget;
        int Of(int sessions) => (int)Math.Ceiling(sessions * share);
        var streaming = client.Shortfall(OperationKind.Streaming);
        var queue = client.Shortfall(OperationKind.Queue);
        var health = client.Shortfall(OperationKind.HealthCheck);
        var hungry = stats.StreamingWaiting + stats.QueueWaiting + stats.HealthCheckWaiting + streaming + queue + health > 0 || pool.Waiters > 0;
        return new LeaseDemand(node.Id,
            Of(stats.StreamingInUse + stats.StreamingWaiting + streaming),
            Of(stats.QueueInUse + stats.QueueWaiting + queue),
            Of(stats.HealthCheckInUse + stats.HealthCheckWaiting + health),
            hungry);
    }

    private static string Describe(IReadOnlyDictionary<string, int> grants) =>
        grants.Count == 0 ? "(none)" : string.Join(", ", grants.Select(g => $"{g.Key}: {g.Value}"));
}

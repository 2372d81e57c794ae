using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Traffic;

namespace NzbDav.Usenet.Providers;

// Leases: a permit and a session on the best provider; race sessions on backups; block-account sessions.
public sealed partial class UsenetClient
{
    /// <summary>A permit of <paramref name="kind"/> plus a session on the best available provider.</summary>
    /// <exception cref="NoProviderAvailableException">Every provider is cooling off or failed to connect.</exception>
    public ValueTask<UsenetLease> AcquireAsync(OperationKind kind, CancellationToken cancellationToken) =>
        AcquireAsync(kind, null, cancellationToken);

    /// <summary>
    /// A permit of <paramref name="kind"/> plus a session on the best available provider not in
    /// <paramref name="avoid"/>: the first primary with a session ready or a free slot; otherwise the
    /// next one freed on the first usable primary; backup-only providers only while no primary
    /// admits work (all cooling off, or all avoided).
    /// </summary>
    /// <exception cref="NoProviderAvailableException">Every provider not avoided is cooling off or failed to connect.</exception>
    public ValueTask<UsenetLease> AcquireAsync(OperationKind kind, IReadOnlyList<string>? avoid, CancellationToken cancellationToken) =>
        AcquireAsync(kind, avoid, null, null, cancellationToken);

    /// <summary>As <see cref="AcquireAsync(OperationKind, IReadOnlyList{string}?, CancellationToken)"/>, waiting for the permit on behalf of <paramref name="requester"/>.</summary>
    /// <exception cref="NoProviderAvailableException">Every provider not avoided is cooling off or failed to connect.</exception>
    internal async ValueTask<UsenetLease> AcquireAsync(OperationKind kind, IReadOnlyList<string>? avoid, object? requester, TrafficAccount? account, CancellationToken cancellationToken)
    {
        var permit = await _limiter.AcquireAsync(kind, requester, cancellationToken).ConfigureAwait(false);
        try
        {
            var (endpoint, lease) = await LeaseBestAsync(avoid, block: false, cancellationToken).ConfigureAwait(false);
            return new UsenetLease(endpoint, permit, lease, account ?? Traffic.For(kind), Quotas, Bandwidth?.Ticket(endpoint.Name, kind, requester));
        }
        catch
        {
            permit.Dispose();
            throw;
        }
    }

    /// <summary>
    /// A session to race a late article on, only if one can be had at once: on a backup-only
    /// provider not in <paramref name="avoid"/>, outside the limiter's budget. Backups add nothing
    /// to that budget (it is the primaries' capacity), and each backup's pool still holds it to its
    /// own MaxConnections, so no provider ever sees more sessions than it allows. While every primary
    /// permit is taken this is the only connection a stalled article can be raced on; the lease is
    /// given back as soon as its race is over. Null when no backup has a session free now.
    /// </summary>
    public async ValueTask<UsenetLease?> TryLeaseRacerAsync(IReadOnlyList<string>? avoid, CancellationToken cancellationToken) =>
        await LeaseRacerForAsync(avoid, null, null, cancellationToken).ConfigureAwait(false);

    /// <summary>
    /// A session on a block account not in <paramref name="avoid"/>, for an article nothing else
    /// can serve (or one a reader has waited on past <see cref="BlockAccountAfter"/>). Like a race
    /// session it takes no limiter permit: it replaces work the budget's providers could not do,
    /// and each block account's pool holds it to its own MaxConnections. Waits for a session when
    /// every block account is busy.
    /// </summary>
    /// <exception cref="NoProviderAvailableException">No block account not avoided is usable (none, cooling off, at its quota, failed to connect).</exception>
    internal async ValueTask<UsenetLease> LeaseBlockAsync(IReadOnlyList<string>? avoid, TrafficAccount? account, OperationKind kind, object? requester, CancellationToken cancellationToken)
    {
        var (endpoint, lease) = await LeaseBestAsync(avoid, block: true, cancellationToken).ConfigureAwait(false);
        return new UsenetLease(endpoint, default, lease, account ?? Traffic.For(kind), Quotas, Bandwidth?.Ticket(endpoint.Name, kind, requester));
    }

    /// <summary>As above, the race's bytes counted for <paramref name="account"/> (the streaming account when null).</summary>
    internal async ValueTask<UsenetLease?> LeaseRacerForAsync(IReadOnlyList<string>? avoid, TrafficAccount? account, object? requester, CancellationToken cancellationToken)
    {
        foreach (var endpoint in Providers.Endpoints)
        {
            if (!endpoint.IsBackup || endpoint.IsRetired || avoid?.Contains(endpoint.Name, StringComparer.OrdinalIgnoreCase) == true
                || Quotas?.Exhausted(endpoint.Name) is not null || !endpoint.Breaker.TryEnter())
            {
                continue;
            }

            ValueTask<ConnectionLease> pending;
            try
            {
                if (!endpoint.Pool.TryRentWithoutWaiting(cancellationToken, out pending))
                {
                    endpoint.Breaker.OnNeutral();
                    continue;
                }
            }
            catch (Exception error) when (error is ProviderRetiredException or ObjectDisposedException)
            {
                endpoint.Breaker.OnNeutral();
                continue;
            }

            ConnectionLease lease;
            try
            {
                lease = await pending.ConfigureAwait(false);
            }
            catch (Exception error) when (FailureClassifier.IsProviderFault(error, cancellationToken))
            {
                endpoint.Fail(error);
                continue;
            }
            catch
            {
                endpoint.Breaker.OnNeutral();
                throw;
            }

            endpoint.Breaker.OnSuccess();
            return new UsenetLease(endpoint, default, lease, account ?? Traffic.For(OperationKind.Streaming), Quotas, Bandwidth?.Ticket(endpoint.Name, OperationKind.Streaming, requester));
        }

        return null;
    }


    // Pass 0 takes a ready session or free slot anywhere in order; backup-only providers only when no
    // primary is usable (a busy primary is worth waiting for, a failing one is not). Pass 1 waits on
    // each usable provider in order until one lends a session. Block accounts are leased only when
    // asked for (and then nothing else is), or when they are all there is.
    private async Task<(ProviderEndpoint Endpoint, ConnectionLease Lease)> LeaseBestAsync(IReadOnlyList<string>? avoid, bool block, CancellationToken cancellationToken)
    {
        List<ProviderFailure>? failures = null;
        var set = Providers;
        var endpoints = set.Endpoints;
        var separate = set.BlockNames.Length > 0;
        for (var pass = 0; pass < 2; pass++)
        {
            var primaryBusy = false;
            foreach (var endpoint in endpoints)
            {
                if (pass == 0 && !endpoint.IsPrimary && primaryBusy)
                {
                    break;
                }

                if (separate ? endpoint.IsBlock != block : block)
                {
                    continue;
                }

                if (endpoint.IsRetired || avoid?.Contains(endpoint.Name, StringComparer.OrdinalIgnoreCase) == true)
                {
                    continue;
                }

                // A provider at its quota is passed over as one that is down; the read goes on elsewhere.
                if (Quotas?.Exhausted(endpoint.Name) is { } spent)
                {
                    if (pass == 1)
                    {
                        (failures ??= []).Add(new ProviderFailure(endpoint.Name, $"skipped: {spent}"));
                    }

                    continue;
                }

                if (!endpoint.Breaker.TryEnter())
                {
                    if (pass == 1)
                    {
                        (failures ??= []).Add(new ProviderFailure(endpoint.Name, $"skipped: failing, next trial at {endpoint.Breaker.RetryAt:u}"));
                    }

                    continue;
                }

                ConnectionLease lease;
                try
                {
                    if (pass == 1)
                    {
                        lease = await endpoint.Pool.RentAsync(cancellationToken).ConfigureAwait(false);
                    }
                    else if (endpoint.Pool.TryRentWithoutWaiting(cancellationToken, out var pending))
                    {
                        lease = await pending.ConfigureAwait(false);
                    }
                    else
                    {
                        primaryBusy |= endpoint.IsPrimary;
                        endpoint.Breaker.OnNeutral();
                        continue;
                    }
                }
                catch (Exception error) when (error is ConnectionPoolTimeoutException or ProviderRetiredException || FailureClassifier.IsProviderFault(error, cancellationToken))
                {
                    if (error is ConnectionPoolTimeoutException or ProviderRetiredException)
                    {
                        primaryBusy |= pass == 0 && endpoint.IsPrimary && error is ConnectionPoolTimeoutException;
                        endpoint.Breaker.OnNeutral();
                    }
                    else
                    {
                        endpoint.Fail(error);
                    }

                    (failures ??= []).Add(new ProviderFailure(endpoint.Name, error.Message, error));
                    continue;
                }
                catch
                {
                    endpoint.Breaker.OnNeutral();
                    throw;
                }

                // A live session (new or reused) is enough to settle a half-open trial.
                endpoint.Breaker.OnSuccess();
                return (endpoint, lease);
            }
        }

        throw new NoProviderAvailableException(failures ?? [new ProviderFailure("(none)", endpoints.Length == 0
            ? "no Usenet provider is configured"
            : block && !separate ? "no block account is configured apart from the other providers"
            : avoid is { Count: > 0 } ? $"no provider other than {string.Join(", ", avoid)} admitted work" : "no provider admitted work")]);
    }
}

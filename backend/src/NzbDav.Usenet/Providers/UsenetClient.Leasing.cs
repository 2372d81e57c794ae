namespace NzbDav.Usenet.Providers;

// Choosing the provider for a long-lived lease.
public sealed partial class UsenetClient
{
    // Pass 0 takes a ready session or free slot anywhere in order; pass 1 waits on the first usable
    // provider. Backup-only providers are considered only when no primary admits work.
    private async Task<(ProviderEndpoint Endpoint, ConnectionLease Lease)> LeaseBestAsync(CancellationToken cancellationToken)
    {
        List<ProviderFailure>? failures = null;
        for (var pass = 0; pass < 2; pass++)
        {
            var primaryAdmitted = false;
            foreach (var endpoint in _endpoints)
            {
                if (!endpoint.IsPrimary && primaryAdmitted)
                {
                    break;
                }

                if (!endpoint.Breaker.TryEnter())
                {
                    if (pass == 1)
                    {
                        (failures ??= []).Add(new ProviderFailure(endpoint.Name, $"skipped: failing, next trial at {endpoint.Breaker.RetryAt:u}"));
                    }

                    continue;
                }

                primaryAdmitted |= endpoint.IsPrimary;
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
                        endpoint.Breaker.OnNeutral();
                        continue;
                    }
                }
                catch (Exception error) when (error is ConnectionPoolTimeoutException || IsProviderFault(error, cancellationToken))
                {
                    if (error is ConnectionPoolTimeoutException)
                    {
                        endpoint.Breaker.OnNeutral();
                    }
                    else
                    {
                        endpoint.Breaker.OnFailure();
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

        throw new NoProviderAvailableException(failures ?? [new ProviderFailure("(none)", "no provider admitted work")]);
    }
}

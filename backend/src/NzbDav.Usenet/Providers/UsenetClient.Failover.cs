using System.Net.Sockets;
using System.Security.Authentication;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Providers;

// The try order, retries and breaker bookkeeping shared by BODY, STAT and lease fallbacks.
public sealed partial class UsenetClient
{
    // Returns (true, value) from the first provider that has the article, (false, default) when every
    // provider asked answered "missing", and throws when the answer is unknown. With exclude set (a
    // lease's own provider), providers ordered before it are only used when a session is free right
    // now: waits then only ever point later in the order, so lease holders cannot wait on each other
    // in a cycle.
    private async Task<(bool Found, T? Value)> FailoverAsync<T>(
        string messageId,
        Func<INntpConnection, CancellationToken, Task<(bool, T)>> attempt,
        Func<bool>? canRetry,
        ProviderEndpoint? exclude,
        CancellationToken cancellationToken)
    {
        List<string>? missingOn = null;
        List<ProviderFailure>? failures = null;
        foreach (var endpoint in _endpoints)
        {
            if (endpoint == exclude)
            {
                continue;
            }

            var mayWait = exclude is null || endpoint.Order > exclude.Order;
            for (var attemptNumber = 1; attemptNumber <= _options.MaxAttemptsPerProvider; attemptNumber++)
            {
                if (!endpoint.Breaker.TryEnter())
                {
                    (failures ??= []).Add(new ProviderFailure(endpoint.Name, $"skipped: failing, next trial at {endpoint.Breaker.RetryAt:u}"));
                    break;
                }

                var outcome = await TryOnceAsync(endpoint, attempt, mayWait, cancellationToken).ConfigureAwait(false);
                if (outcome.Result == AttemptResult.Found)
                {
                    return (true, outcome.Value);
                }

                if (outcome.Result == AttemptResult.Missing)
                {
                    (missingOn ??= []).Add(endpoint.Name);
                    break;
                }

                (failures ??= []).Add(outcome.Failure!);
                UsenetLog.AttemptFailed(_logger, attemptNumber, messageId, endpoint.Name, outcome.Failure!.Reason, outcome.Failure.Error);
                if (canRetry is not null && !canRetry())
                {
                    throw new ArticleFetchFailedException(messageId, missingOn ?? [], failures,
                        "the target had already received data, so no other session or provider was tried; pass a target factory to allow retries");
                }

                if (outcome.Result == AttemptResult.NextProvider)
                {
                    break;
                }
            }
        }

        return failures is null ? (false, default) : throw new ArticleFetchFailedException(messageId, missingOn ?? [], failures);
    }

    private async Task<AttemptOutcome<T>> TryOnceAsync<T>(
        ProviderEndpoint endpoint,
        Func<INntpConnection, CancellationToken, Task<(bool, T)>> attempt,
        bool mayWait,
        CancellationToken cancellationToken)
    {
        var breaker = endpoint.Breaker;
        var reported = false;
        try
        {
            ConnectionLease lease;
            try
            {
                if (mayWait)
                {
                    lease = await endpoint.Pool.RentAsync(cancellationToken).ConfigureAwait(false);
                }
                else if (endpoint.Pool.TryRentWithoutWaiting(cancellationToken, out var pending))
                {
                    lease = await pending.ConfigureAwait(false);
                }
                else
                {
                    return AttemptOutcome<T>.NextProvider(new ProviderFailure(endpoint.Name, "all connections busy"));
                }
            }
            catch (ConnectionPoolTimeoutException error)
            {
                return AttemptOutcome<T>.NextProvider(new ProviderFailure(endpoint.Name, error.Message, error));
            }
            catch (Exception error) when (IsProviderFault(error, cancellationToken))
            {
                breaker.OnFailure();
                reported = true;
                var failure = new ProviderFailure(endpoint.Name, $"connect failed: {error.Message}", error);
                return error is NntpAuthenticationException ? AttemptOutcome<T>.NextProvider(failure) : AttemptOutcome<T>.Retry(failure);
            }

            await using (lease.ConfigureAwait(false))
            {
                try
                {
                    var (found, value) = await attempt(lease.Connection, cancellationToken).ConfigureAwait(false);
                    breaker.OnSuccess();
                    reported = true;
                    return found ? AttemptOutcome<T>.Found(value) : AttemptOutcome<T>.Missing();
                }
                catch (NntpArticleNotFoundException)
                {
                    breaker.OnSuccess(); // a 430 is a healthy provider's normal answer
                    reported = true;
                    return AttemptOutcome<T>.Missing();
                }
                catch (YencException error)
                {
                    // The provider answered; its copy is bad. Another provider may hold a good one.
                    breaker.OnSuccess();
                    reported = true;
                    return AttemptOutcome<T>.NextProvider(new ProviderFailure(endpoint.Name, $"corrupt article: {error.Message}", error));
                }
                catch (Exception error) when (IsProviderFault(error, cancellationToken))
                {
                    breaker.OnFailure();
                    reported = true;
                    return AttemptOutcome<T>.Retry(new ProviderFailure(endpoint.Name, error.Message, error));
                }
            }
        }
        finally
        {
            if (!reported)
            {
                breaker.OnNeutral();
            }
        }
    }

    // Failures that say something about the provider or the link to it. Everything else (the
    // caller's cancellation, a bug in a caller's target, a disposed client) propagates unchanged.
    private static bool IsProviderFault(Exception error, CancellationToken cancellationToken) => error switch
    {
        OperationCanceledException => !cancellationToken.IsCancellationRequested,
        ObjectDisposedException => false,
        NntpException or IOException or SocketException or TimeoutException or AuthenticationException => true,
        _ => false,
    };
}

using System.Net.Sockets;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming;

// Running one fetch and deciding what its ending means.
internal sealed partial class SegmentFetchScheduler
{
    private async Task RunAttemptAsync(FetchAttempt attempt)
    {
        var token = attempt.Cancellation.Token;
        var lease = attempt.Worker.Lease!;
        try
        {
            if (attempt.ViaOtherProviders)
            {
                await lease.BodyFromOtherProvidersAsync(attempt.Ticket.MessageId, () => attempt.NewBuffer(_pool, _statistics), token).ConfigureAwait(false);
            }
            else
            {
                await FetchOnLeaseAsync(attempt, lease, token).ConfigureAwait(false);
            }
            attempt.Outcome = FetchOutcome.Succeeded;
        }
        catch (OperationCanceledException) when (token.IsCancellationRequested)
        {
            attempt.Outcome = FetchOutcome.Cancelled;
        }
        catch (Exception error)
        {
            attempt.Error = error;
            attempt.Outcome = Classify(error);
        }
        finally
        {
            attempt.ReleaseBuffers();
        }
        _finished.Enqueue(attempt);
        _signal.Set();
    }

    /// <summary>BODY on the worker's own connection; a 430 or a corrupt copy moves on to the other providers at once.</summary>
    private async Task FetchOnLeaseAsync(FetchAttempt attempt, UsenetLease lease, CancellationToken token)
    {
        var messageId = attempt.Ticket.MessageId;
        try
        {
            await lease.Connection.BodyAsync(messageId, attempt.NewBuffer(_pool, _statistics), token).ConfigureAwait(false);
        }
        catch (Exception error) when (_hasOtherProviders && error is NntpArticleNotFoundException or YencException && !token.IsCancellationRequested)
        {
            attempt.MarkUnfinishedFailed();
            try
            {
                await lease.BodyFromOtherProvidersAsync(messageId, () => attempt.NewBuffer(_pool, _statistics), token).ConfigureAwait(false);
            }
            catch (ArticleMissingException missing) when (error is YencException)
            {
                throw new SegmentFetchFatalException(
                    $"corrupt on provider '{lease.ProviderName}' ({error.Message}) and missing on every other provider", missing);
            }
        }
    }

    private static FetchOutcome Classify(Exception error) => error switch
    {
        SegmentFetchFatalException or ArticleMissingException or NntpArticleNotFoundException => FetchOutcome.Fatal,
        ObjectDisposedException => FetchOutcome.Fatal,
        NntpException or YencException or ArticleFetchFailedException or NoProviderAvailableException => FetchOutcome.Retryable,
        IOException or SocketException or TimeoutException or OperationCanceledException => FetchOutcome.Retryable,
        _ => FetchOutcome.Fatal,
    };

    private void OnFinished(FetchAttempt attempt, long now)
    {
        _running.Remove(attempt);
        attempt.Cancellation.Dispose();
        var worker = attempt.Worker;
        if (--worker.InFlight == 0)
        {
            worker.IdleSince = now;
        }
        if (worker.State == FetchWorkerState.Ready && !worker.Lease!.Connection.IsUsable)
        {
            Drain(worker, breakConnection: false);
        }
        var ticket = attempt.Ticket;
        ticket.Attempts.Remove(attempt);
        switch (attempt.Outcome)
        {
            case FetchOutcome.Succeeded:
                if (attempt.Completed is { } buffer)
                {
                    _timings.Record(buffer.BegunAt - attempt.StartedAt, now - attempt.StartedAt);
                }
                foreach (var loser in ticket.Attempts.ToArray())
                {
                    CancelLoser(loser);
                }
                return;
            case FetchOutcome.Cancelled:
                // Dropped because its connection was drained, not because the ticket left: fetch elsewhere.
                Enqueue(ticket);
                return;
        }
        if (ticket.IsRetired || ticket.IsCompleted || ticket.Failure is not null)
        {
            return;
        }
        ticket.LastError = attempt.Error;
        if (ticket.Attempts.Count > 0)
        {
            return; // the other racer may still deliver
        }
        var provider = worker.Lease!.ProviderName;
        if (attempt.Outcome == FetchOutcome.Retryable && ++ticket.FailedAttempts < _options.MaxAttemptsPerSegment)
        {
            StreamingLog.AttemptFailed(_logger, ticket.Number, ticket.MessageId, provider, ticket.FailedAttempts, attempt.Error);
            _statistics.Retried();
            ticket.Avoid = worker;
            Enqueue(ticket);
            return;
        }
        var reason = attempt.Outcome == FetchOutcome.Retryable
            ? $"{ticket.FailedAttempts} tries failed, the last with: {attempt.Error?.Message}"
            : attempt.Error?.Message ?? "unknown failure";
        StreamingLog.SegmentFailed(_logger, ticket.Number, ticket.MessageId, reason);
        ticket.Fail(new SegmentUnavailableException(ticket.Number, ticket.MessageId, reason, attempt.Error));
    }
}

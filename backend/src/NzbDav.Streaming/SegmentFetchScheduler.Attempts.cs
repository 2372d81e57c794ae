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
        var messageId = attempt.Ticket.MessageId;
        try
        {
            if (attempt.ViaOtherProviders)
            {
                await lease.BodyFromOtherProvidersAsync(messageId, () => attempt.NewBuffer(_pool, _statistics), token).ConfigureAwait(false);
            }
            else
            {
                await lease.Connection.BodyAsync(messageId, attempt.NewBuffer(_pool, _statistics), token).ConfigureAwait(false);
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

    // A 430 or a corrupt copy here is reported back rather than chased inline: the scheduler then
    // routes the retry to a connection of another provider this stream already holds, instead of
    // waiting in that provider's pool for a connection that may be one of its own.
    private static FetchOutcome Classify(Exception error) => error switch
    {
        NntpArticleNotFoundException => FetchOutcome.Missing,
        YencException => FetchOutcome.Corrupt,
        ArticleMissingException or ObjectDisposedException => FetchOutcome.Fatal,
        NntpException or ArticleFetchFailedException or NoProviderAvailableException => FetchOutcome.Retryable,
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
                if (attempt.CompletedBegunAt != 0)
                {
                    _timings.Record(attempt.CompletedBegunAt - attempt.StartedAt, now - attempt.StartedAt);
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
        if (ticket.Attempts.Count > 0)
        {
            return; // the other racer may still deliver
        }
        var provider = worker.Lease!.ProviderName;
        var reason = RetryOrGiveUp(ticket, attempt, provider);
        if (reason is null)
        {
            StreamingLog.AttemptFailed(_logger, ticket.Number, ticket.MessageId, provider, attempt.Outcome, attempt.Error);
            _statistics.Retried();
            ticket.Avoid = worker;
            Enqueue(ticket);
            return;
        }
        StreamingLog.SegmentFailed(_logger, ticket.Number, ticket.MessageId, reason);
        ticket.Fail(new SegmentUnavailableException(ticket.Number, ticket.MessageId, reason, attempt.Error));
    }

    /// <summary>Null to try again; otherwise why the segment is given up on.</summary>
    private string? RetryOrGiveUp(SegmentTicket ticket, FetchAttempt attempt, string provider)
    {
        switch (attempt.Outcome)
        {
            case FetchOutcome.Missing:
                MarkBad(ticket, provider);
                // Each 430 rules out one more provider, so this ends by itself.
                return AllBad(ticket) ? $"missing (430) on every provider ({string.Join(", ", ticket.BadProviders!)})" : null;
            case FetchOutcome.Corrupt:
                MarkBad(ticket, provider);
                break;
            case FetchOutcome.Retryable:
                if (ticket.FailedAttempts >= 1)
                {
                    MarkBad(ticket, provider); // failing twice: try another provider next, if there is one
                }
                break;
            default:
                return attempt.Error?.Message ?? "unknown failure";
        }
        return ++ticket.FailedAttempts < _options.MaxAttemptsPerSegment
            ? null
            : $"{ticket.FailedAttempts} tries failed, the last with: {attempt.Error?.Message}";
    }

    private static void MarkBad(SegmentTicket ticket, string provider)
    {
        ticket.BadProviders ??= new List<string>(2);
        if (!ticket.BadProviders.Contains(provider))
        {
            ticket.BadProviders.Add(provider);
        }
    }

    private bool AllBad(SegmentTicket ticket) =>
        ticket.BadProviders is { } bad && Array.TrueForAll(_providerNames, bad.Contains);
}

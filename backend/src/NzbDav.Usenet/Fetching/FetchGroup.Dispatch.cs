using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Fetching;

// Which request goes to which connection, and what an attempt's end means for its request.
public sealed partial class FetchGroup
{
    // ---- requests: queueing and handing them to connections ----

    private static bool NeedsFetch(ArticleRequest request) =>
        !request.State.Settled && request.State.Attempts.Count == 0 && request.IsWanted;

    private void Enqueue(ArticleRequest request)
    {
        if (!request.State.Queued && NeedsFetch(request))
        {
            request.State.Queued = true;
            _pending.Enqueue(request, (request.Order, _sequence++));
        }
    }

    private void Dispatch(long now)
    {
        while (_running.Count < _options.MaxInFlight && _pending.TryPeek(out var request, out _))
        {
            if (!NeedsFetch(request))
            {
                _pending.Dequeue();
                request.State.Queued = false;
                continue;
            }
            if (AllProvidersRuledOut(request))
            {
                _pending.Dequeue();
                request.State.Queued = false;
                GiveUp(request, null, null);
                continue;
            }
            var worker = PickWorker(request);
            if (worker is null)
            {
                // The reader is blocked on this one: worth a connection beyond the usual count.
                _wantExtraLease |= ReferenceEquals(request, Volatile.Read(ref _head));
                return;
            }
            _pending.Dequeue();
            request.State.Queued = false;
            Start(request, worker, now);
        }
    }

    /// <summary>
    /// The least loaded connection with a free pipeline slot to a provider not ruled out for the
    /// request (the first such, in a stable order, avoiding the one that failed it last if possible).
    /// When no connection of the group can serve it and none that could is busy or on its way, the
    /// group asks for a lease that avoids the ruled-out providers.
    /// </summary>
    private FetchWorker? PickWorker(ArticleRequest request)
    {
        var state = request.State;
        FetchWorker? best = null;
        var bestRank = int.MaxValue;
        var goodBusy = false;
        foreach (var worker in _workers)
        {
            if (worker.IsRacer)
            {
                continue; // only for races
            }
            if (worker.State == FetchWorkerState.Acquiring)
            {
                // A lease on its way that cannot land on a ruled-out provider will serve it.
                goodBusy |= worker.IsBlock
                    ? state.BlockAllowed
                    : worker.Avoid is { } avoid && !worker.AcquireCancellation.IsCancellationRequested && Covers(avoid, Excluded(request));
                continue;
            }
            if (IsExcluded(request, worker))
            {
                continue;
            }
            if (!worker.HasCapacity)
            {
                goodBusy |= worker.State == FetchWorkerState.Ready && worker.Lease!.Connection.IsUsable && !worker.Lease.IsRetired;
                continue;
            }
            // Least loaded first: requests spread over connections transfer in parallel rather
            // than one after another on a single connection.
            // A block session only when nothing else is free: its bytes are paid one by one.
            var rank = ((worker.IsBlock ? 2 : 0) * 1024) + ((ReferenceEquals(worker, state.Avoid) ? 1 : 0) * 1024) + worker.InFlight;
            if (rank < bestRank)
            {
                best = worker;
                bestRank = rank;
            }
        }
        if (best is null && !goodBusy && !HasPlainAcquisition() && Excluded(request) is { Count: > 0 } excluded && excluded.Count < _client.RegularProviderNames.Length)
        {
            _wantAvoiding ??= excluded;
        }
        _wantBlockLease |= best is null && state.BlockAllowed;
        return best;
    }

    private bool HasPlainAcquisition() =>
        _workers.Exists(static w => w.State == FetchWorkerState.Acquiring && !w.IsRacer && w.Avoid is null && !w.AcquireCancellation.IsCancellationRequested);

    private static bool Covers(IReadOnlyList<string> avoid, IReadOnlyList<string> excluded)
    {
        foreach (var provider in excluded)
        {
            if (!avoid.Contains(provider))
            {
                return false;
            }
        }
        return true;
    }

    /// <summary>
    /// Whether the request should not go to <paramref name="provider"/>: never once the provider is
    /// done with it (it answered 430, or failed it the client's attempts per provider); after a
    /// corrupt copy only while some other provider is still worth asking.
    /// </summary>
    private bool IsExcluded(ArticleRequest request, string provider)
    {
        if (IsExhausted(request, provider))
        {
            return true;
        }
        if (!request.State.IsBad(provider))
        {
            return false;
        }
        foreach (var name in _client.RegularProviderNames)
        {
            if (!request.State.IsBad(name) && !IsExhausted(request, name))
            {
                return true;
            }
        }
        if (request.State.BlockAllowed)
        {
            foreach (var name in _client.BlockProviderNames)
            {
                if (!request.State.IsBad(name) && !IsExhausted(request, name))
                {
                    return true;
                }
            }
        }
        return false;
    }

    private bool IsExhausted(ArticleRequest request, string provider)
    {
        var state = request.State;
        return state.MissingOn?.Contains(provider) == true || state.FaultsOn(provider) >= _client.MaxAttemptsPerProvider;
    }

    /// <summary>The providers other than block accounts the request should not go to (what a plain lease must avoid).</summary>
    private List<string> Excluded(ArticleRequest request)
    {
        var excluded = new List<string>();
        foreach (var name in _client.RegularProviderNames)
        {
            if (IsExcluded(request, name))
            {
                excluded.Add(name);
            }
        }
        return excluded;
    }

    private int MaxAttempts() => _options.MaxAttempts ?? int.MaxValue;

    private void Start(ArticleRequest request, FetchWorker worker, long now)
    {
        var attempt = new FetchAttempt(request, worker, now);
        request.State.Attempts.Add(attempt);
        _running.Add(attempt);
        worker.InFlight++;
        attempt.Task = RunAttemptAsync(attempt);
    }

    private async Task RunAttemptAsync(FetchAttempt attempt)
    {
        var token = attempt.Cancellation.Token;
        var connection = attempt.Worker.Lease!.Connection;
        var request = attempt.Request;
        try
        {
            if (request.Command == ArticleCommand.Stat)
            {
                attempt.Outcome = await connection.StatAsync(request.MessageId, token).ConfigureAwait(false)
                    ? FetchOutcome.Succeeded
                    : FetchOutcome.Missing;
            }
            else
            {
                var target = attempt.Wrap(request.CreateTarget(attempt.Worker.ProviderName!));
                attempt.Header = await connection.BodyAsync(request.MessageId, target, token).ConfigureAwait(false);
                attempt.Outcome = FetchOutcome.Succeeded;
            }
        }
        catch (Exception error)
        {
            attempt.Error = error;
            attempt.Outcome = FailureClassifier.Classify(error, token) switch
            {
                FailureKind.Missing => FetchOutcome.Missing,
                FailureKind.Corrupt => FetchOutcome.Corrupt,
                FailureKind.Cancelled => FetchOutcome.Cancelled,
                FailureKind.ProviderFault => FetchOutcome.Retryable,
                _ => FetchOutcome.Fatal,
            };
        }
        finally
        {
            attempt.EndTarget(attempt.Outcome == FetchOutcome.Succeeded);
        }
        _finished.Enqueue(attempt);
        _signal.Set();
    }

    private void OnFinished(FetchAttempt attempt, long now)
    {
        _running.Remove(attempt);
        attempt.Cancellation.Dispose();
        var worker = attempt.Worker;
        if (--worker.InFlight == 0)
        {
            worker.IdleSince = now;
        }
        if (worker.State == FetchWorkerState.Ready && (!worker.Lease!.Connection.IsUsable || worker.Lease.IsRetired))
        {
            Drain(worker, breakConnection: false);
        }
        var request = attempt.Request;
        var state = request.State;
        state.Attempts.Remove(attempt);
        var provider = worker.ProviderName!;
        switch (attempt.Outcome)
        {
            case FetchOutcome.Succeeded:
                if (attempt.BegunAt != 0)
                {
                    _timings.Record(attempt.BegunAt - attempt.StartedAt, now - attempt.StartedAt);
                }
                foreach (var loser in state.Attempts.ToArray())
                {
                    CancelLoser(loser);
                }
                if (!state.Settled)
                {
                    state.Settled = true;
                    request.OnFound(attempt.Header);
                    if (state.SlowLogged)
                    {
                        FetchLog.SlowReadEnded(_logger, request.MessageId, (long)_time.GetElapsedTime(state.WaitedSince, now).TotalMilliseconds,
                            $"{provider}{(worker.IsRacer ? " (race session)" : "")} after {(long)_time.GetElapsedTime(attempt.StartedAt, now).TotalMilliseconds} ms",
                            state.Races, state.FailedAttempts, state.RacerNote ?? "none",
                            state.RaceCheckedAt == 0 ? "never" : $"{(long)_time.GetElapsedTime(state.RaceCheckedAt, now).TotalMilliseconds} ms ago: {state.RaceCheck}, {state.RaceChecks} time(s) in all");
                    }
                }
                return;
            case FetchOutcome.Cancelled:
                // Dropped because its connection was drained, not because the consumer left: fetch elsewhere.
                Enqueue(request);
                return;
        }
        if (state.Settled || !request.IsWanted || state.Attempts.Count > 0)
        {
            return; // answered, abandoned, or the other racer may still deliver
        }
        if (attempt.Outcome == FetchOutcome.Fatal)
        {
            Settle(request, attempt.Error!);
            return;
        }
        if (Decide(request, attempt, provider, now))
        {
            FetchLog.AttemptFailed(_logger, request.MessageId, provider, attempt.Outcome, attempt.Error);
            Statistics.Retried();
            state.Avoid = worker;
            Enqueue(request);
        }
    }

    /// <summary>
    /// What a failed attempt means for its request: true to try again; otherwise the request was
    /// answered. A 430 rules its provider out for good without counting as a failure (each rules out
    /// one more provider, so it ends by itself); a corrupt copy counts and sends the retry elsewhere
    /// while another provider is left; a connection failure counts, and after the client's attempts
    /// per provider sends retries elsewhere too.
    /// </summary>
    private bool Decide(ArticleRequest request, FetchAttempt attempt, string provider, long now)
    {
        var state = request.State;
        switch (attempt.Outcome)
        {
            case FetchOutcome.Missing:
                state.AddMissing(provider);
                break;
            case FetchOutcome.Corrupt:
                (state.Failures ??= []).Add(new ProviderFailure(provider, $"corrupt article: {attempt.Error!.Message}", attempt.Error));
                state.MarkBad(provider);
                state.FailedAttempts++;
                break;
            default:
                (state.Failures ??= []).Add(new ProviderFailure(provider, attempt.Error!.Message, attempt.Error));
                state.FailedAttempts++;
                break;
        }
        UpdateBlockAllowed(request, now);
        if (AllProvidersRuledOut(request) || state.FailedAttempts >= MaxAttempts())
        {
            GiveUp(request, attempt, provider);
            return false;
        }
        return true;
    }

    /// <summary>Every provider in force is done with the request (or there is none): nobody is left to ask (block accounts only once allowed).</summary>
    private bool AllProvidersRuledOut(ArticleRequest request)
    {
        foreach (var name in _client.RegularProviderNames)
        {
            if (!IsExhausted(request, name))
            {
                return false;
            }
        }
        if (request.State.BlockAllowed)
        {
            foreach (var name in _client.BlockProviderNames)
            {
                if (!IsExhausted(request, name))
                {
                    return false;
                }
            }
        }
        return true;
    }

    private void GiveUp(ArticleRequest request, FetchAttempt? last, string? provider)
    {
        var state = request.State;
        if (state.Failures is null && state.MissingOn is { Count: > 0 } missing)
        {
            Settle(request, new ArticleMissingException(request.MessageId, [.. missing]));
            return;
        }
        var failures = state.Failures ?? [new ProviderFailure("(none)", _client.ProviderCount == 0 ? "no Usenet provider is configured" : "no provider is left to ask")];
        var note = state.FailedAttempts >= MaxAttempts() && !AllProvidersRuledOut(request)
            ? $"gave up after {state.FailedAttempts} failed tries"
            : null;
        FetchLog.GaveUp(_logger, request.MessageId, provider ?? "-", last?.Error?.Message ?? failures[^1].Reason);
        Settle(request, new ArticleFetchFailedException(request.MessageId, state.MissingOn ?? [], failures, note));
    }

    private static void Settle(ArticleRequest request, Exception error)
    {
        var state = request.State;
        if (state.Settled)
        {
            return;
        }
        state.Settled = true;
        if (error is ArticleMissingException missing)
        {
            request.OnMissing(missing);
        }
        else
        {
            request.OnFailed(error);
        }
    }

    private static void FailRequest(ArticleRequest request, Exception error)
    {
        // Called from the consumer's thread when the loop already died: no loop owns the state now.
        if (request.IsWanted)
        {
            request.OnFailed(new InvalidOperationException($"The fetch group failed: {error.Message}", error));
        }
    }
}

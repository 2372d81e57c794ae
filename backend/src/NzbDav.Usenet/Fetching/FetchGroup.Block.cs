using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Fetching;

// Block accounts: bytes paid for one by one, spent only on what nothing else can serve.
public sealed partial class FetchGroup
{
    /// <summary>Block-account sessions one group may hold at once.</summary>
    private const int MaxBlockLeases = 4;

    private bool _wantBlockLease;
    private long _nextBlockLeaseAt;

    /// <summary>
    /// Lets the request onto block accounts once that is due: every other provider answered 430;
    /// or, with <see cref="UsenetClient.BlockAccountAfter"/> set, a reader has waited on it that
    /// long (at once when every other provider has failed it). Read-ahead nobody waits on and
    /// straggler races never qualify by themselves.
    /// </summary>
    private void UpdateBlockAllowed(ArticleRequest request, long now)
    {
        var state = request.State;
        if (state.BlockAllowed || _client.BlockProviderNames.Length == 0)
        {
            return;
        }
        var allMissing = true;
        var allExhausted = true;
        foreach (var name in _client.RegularProviderNames)
        {
            allMissing &= state.MissingOn?.Contains(name) == true;
            allExhausted &= IsExhausted(request, name);
        }
        if (allMissing)
        {
            AllowBlock(request, "every other provider answered 430");
            return;
        }
        if (_client.BlockAccountAfter is not { } after || state.WaitedSince == 0)
        {
            return;
        }
        var dueAt = state.WaitedSince + Ticks(after);
        if (allExhausted)
        {
            AllowBlock(request, "a reader waits and every other provider failed it");
        }
        else if (now >= dueAt)
        {
            AllowBlock(request, $"a reader has waited {(long)_time.GetElapsedTime(state.WaitedSince, now).TotalMilliseconds} ms");
        }
        else
        {
            WakeAt(dueAt);
        }
    }

    private void AllowBlock(ArticleRequest request, string reason)
    {
        request.State.BlockAllowed = true;
        Statistics.AllowedBlock();
        FetchLog.BlockAllowed(_logger, request.MessageId, reason);
    }

    /// <summary>
    /// A reader waits on a request that is allowed onto block accounts while it runs elsewhere (a
    /// slow answer): a block-account session fetches it too, whichever answers first is used.
    /// </summary>
    private void FetchWaitedOnBlock(ArticleRequest request, long now)
    {
        var state = request.State;
        if (!state.BlockAllowed || state.Attempts.Count == 0)
        {
            return;
        }
        foreach (var attempt in state.Attempts)
        {
            if (attempt.Worker.IsBlock)
            {
                return;
            }
        }
        if (PickBlockWorker(request) is { } worker)
        {
            Start(request, worker, now);
            return;
        }
        _wantBlockLease = true;
    }

    private FetchWorker? PickBlockWorker(ArticleRequest request)
    {
        FetchWorker? best = null;
        foreach (var worker in _workers)
        {
            if (worker.IsBlock && worker.HasCapacity && !IsExhausted(request, worker.ProviderName!) && (best is null || worker.InFlight < best.InFlight))
            {
                best = worker;
            }
        }
        return best;
    }

    /// <summary>Whether the request may go to <paramref name="worker"/>'s connection (block sessions take only what was allowed onto them).</summary>
    private bool IsExcluded(ArticleRequest request, FetchWorker worker) =>
        worker.IsBlock
            ? !request.State.BlockAllowed || IsExhausted(request, worker.ProviderName!)
            : IsExcluded(request, worker.ProviderName!);

    /// <summary>A request waiting for a connection that <paramref name="worker"/>, a block session, may serve.</summary>
    private bool BlockWorkWaits(FetchWorker worker)
    {
        foreach (var (request, _) in _pending.UnorderedItems)
        {
            if (request.State.BlockAllowed && NeedsFetch(request) && !IsExhausted(request, worker.ProviderName!))
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>Asks for one more block-account session when one is wanted and the group may have it.</summary>
    private void ManageBlockLease(long now)
    {
        if (!_wantBlockLease)
        {
            return;
        }
        _wantBlockLease = false;
        var held = 0;
        foreach (var worker in _workers)
        {
            if (worker.IsBlock)
            {
                if (worker.State == FetchWorkerState.Acquiring)
                {
                    return; // one on its way is enough
                }
                held++;
            }
        }
        if (held >= MaxBlockLeases)
        {
            return;
        }
        if (now < _nextBlockLeaseAt)
        {
            WakeAt(_nextBlockLeaseAt);
            return;
        }
        var block = new FetchWorker(_time, now, _client.RegularProviderNames, _stopping.Token, isBlock: true);
        _workers.Add(block);
        block.Acquisition = AcquireBlockAsync(block);
    }

    private async Task AcquireBlockAsync(FetchWorker worker)
    {
        try
        {
            worker.Lease = await _client.LeaseBlockAsync(null, _options.Account, _options.Kind, this, worker.AcquireCancellation.Token).ConfigureAwait(false);
        }
        catch (Exception error)
        {
            worker.AcquireError = error;
        }
        _acquired.Enqueue(worker);
        _signal.Set();
    }

    /// <summary>
    /// No block-account session could be had: requests only a block account could still serve count
    /// a failed try against the accounts that refused, so they end with a clear error rather than
    /// wait forever; requests that can still go elsewhere are untouched.
    /// </summary>
    private void FailWaitingForBlock(Exception? error, long now)
    {
        _nextBlockLeaseAt = now + _raceLeaseRetryTicks;
        if (error is OperationCanceledException)
        {
            return;
        }
        var failed = (error as NoProviderAvailableException)?.Failures
            .GroupBy(f => f.ProviderName, StringComparer.OrdinalIgnoreCase).Select(g => g.Last()).ToList();
        if (failed is null)
        {
            failed = [.. _client.BlockProviderNames.Select(name => new ProviderFailure(name, $"no block-account session: {error?.Message}", error))];
        }
        ChargeWaiting(failed, request => request.State.BlockAllowed && OnlyBlockLeft(request));
    }

    private bool OnlyBlockLeft(ArticleRequest request)
    {
        foreach (var name in _client.RegularProviderNames)
        {
            if (!IsExhausted(request, name))
            {
                return false;
            }
        }
        return true;
    }
}

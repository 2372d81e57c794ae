using System.Net.Sockets;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Server.Queue;

// A worker: one lease, its pipeline, and what each answer (or failure) means.
internal sealed partial class ArticleFetcher
{
    private async Task RunWorkerAsync(FetchWorker worker)
    {
        UsenetLease lease;
        try
        {
            lease = await _client.AcquireAsync(OperationKind.Queue, _stopping.Token);
        }
        catch (Exception error)
        {
            OnAcquireFailed(worker, error);
            return;
        }

        List<FetchWorker>? started = null;
        await using (lease)
        {
            var running = new List<Task>();
            var batch = new List<FetchRequest>();
            while (true)
            {
                Task wake;
                lock (_gate)
                {
                    if (!worker.Leased)
                    {
                        worker.Leased = true;
                        worker.Depth = _depth = Math.Max(1, lease.Connection.PipelineDepth);
                    }

                    worker.InFlight = running.Count;
                    while (worker.InFlight < worker.Depth && _inFlight < _maxInFlight && lease.Connection.IsUsable
                        && !_stopping.IsCancellationRequested && _pending.TryDequeue(out var request))
                    {
                        batch.Add(request);
                        worker.InFlight++;
                        _inFlight++;
                    }

                    if (worker.InFlight == 0)
                    {
                        // Nothing left for this session (or it broke): give the lease back now.
                        _workers.Remove(worker);
                        started = DispatchLocked();
                        break;
                    }

                    wake = worker.NextWake();
                }

                foreach (var request in batch)
                    running.Add(RunAsync(lease, request));
                batch.Clear();
                await Task.WhenAny([.. running, wake]);
                var finished = running.RemoveAll(static t => t.IsCompleted);
                if (finished > 0)
                {
                    lock (_gate)
                        _inFlight -= finished;
                }
            }
        }

        Start(started);
    }

    /// <summary>One BODY on the lease's session; never throws, the request carries the outcome.</summary>
    private async Task RunAsync(UsenetLease lease, FetchRequest request)
    {
        var token = _stopping.Token;
        try
        {
            request.Succeed(await lease.Connection.BodyAsync(request.MessageId, request.NewTarget(), token));
        }
        catch (OperationCanceledException) when (token.IsCancellationRequested)
        {
            request.Cancel(token);
        }
        catch (Exception error) when (error is NntpArticleNotFoundException or YencException)
        {
            await FromOtherProvidersAsync(lease, request, error as YencException);
        }
        catch (Exception error) when (error is NntpException or IOException or SocketException or TimeoutException or OperationCanceledException)
        {
            Retry(request, lease.ProviderName, error);
        }
        catch (Exception error)
        {
            // Not a provider's doing (a target's bug, a disposed client): the caller sees it as it is.
            request.Fail(error);
        }
    }

    private async Task FromOtherProvidersAsync(UsenetLease lease, FetchRequest request, YencException? corrupt)
    {
        var token = _stopping.Token;
        try
        {
            request.Succeed(await lease.BodyFromOtherProvidersAsync(request.MessageId, request.NewTarget, token));
        }
        catch (OperationCanceledException) when (token.IsCancellationRequested)
        {
            request.Cancel(token);
        }
        catch (ArticleMissingException) when (corrupt is not null)
        {
            // Corrupt here and absent elsewhere: the corruption is the useful reason.
            request.Fail(corrupt);
        }
        catch (Exception error)
        {
            request.Fail(error);
        }
    }

    private void Retry(FetchRequest request, string provider, Exception error)
    {
        if (++request.FailedAttempts >= MaxFailedAttempts)
        {
            request.Fail(new ArticleFetchFailedException(request.MessageId, [], [new ProviderFailure(provider, error.Message, error)],
                $"{request.FailedAttempts} sessions broke while fetching it"));
            return;
        }

        List<FetchWorker>? started;
        lock (_gate)
        {
            if (_stopping.IsCancellationRequested)
            {
                request.Cancel(_stopping.Token);
                return;
            }

            _pending.Enqueue(request);
            started = DispatchLocked();
        }

        Start(started);
    }

    private void OnAcquireFailed(FetchWorker worker, Exception error)
    {
        FetchRequest[] orphaned = [];
        lock (_gate)
        {
            _workers.Remove(worker);
            // Other workers will serve the queue; only the last one standing hands the failure on.
            if (_workers.Count == 0)
            {
                orphaned = [.. _pending];
                _pending.Clear();
            }
        }

        foreach (var request in orphaned)
        {
            if (_stopping.IsCancellationRequested)
                request.Cancel(_stopping.Token);
            else
                request.Fail(error);
        }
    }
}

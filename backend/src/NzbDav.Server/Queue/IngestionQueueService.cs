using System.Diagnostics;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Configuration;
using NzbDav.Server.Monitoring;

namespace NzbDav.Server.Queue;

/// <summary>
/// Ingests queued jobs, <see cref="QueueOptions.MaxConcurrentJobs"/> at a time (a change applies at
/// once: workers beyond the new number finish their job and wait), woken by
/// <see cref="QueueSignal"/> the moment addfile saved a job; none starts while the queue is paused
/// (<see cref="QueuePause"/>). Jobs are taken through <see cref="JobClaims"/>, so nodes sharing a
/// library each ingest different ones; jobs left Processing by a node that died or stopped go back in line.
/// Every status change is saved before moving on.
/// </summary>
public sealed class IngestionQueueService(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    JobIngestor ingestor,
    JobCompletion completion,
    JobClaims claims,
    QueueSignal signal,
    QueuePause pause,
    IngestionProgress progress,
    JobCancellations cancellations,
    IOptionsMonitor<NzbDavOptions> options,
    TimeProvider time,
    ILogger<IngestionQueueService> logger,
    IngestionMetrics? metrics = null,
    Cluster.ProviderLeaseState? leases = null,
    IOptionsMonitor<NzbDav.Usenet.Providers.UsenetOptions>? usenet = null) : BackgroundService
{
    /// <summary>How often a node without provider connections looks whether it has some now.</summary>
    private static readonly TimeSpan LeaseWait = TimeSpan.FromMilliseconds(250);

    private static readonly TimeSpan RescanInterval = TimeSpan.FromSeconds(5);

    /// <summary>Completed and replaced whenever the settings change, so a parked worker looks again.</summary>
    private TaskCompletionSource _settingsChanged = new(TaskCreationOptions.RunContinuationsAsynchronously);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var settings = options.CurrentValue.Queue;
        if (settings.Hold)
        {
            logger.LogWarning("The ingestion queue is on hold (NzbDav:Queue:Hold); jobs stay queued");
            return;
        }

        // Jobs interrupted during ingestion were put back in the queue by the node's start (NodeHeartbeat).
        using var subscription = options.OnChange(_ =>
        {
            Interlocked.Exchange(ref _settingsChanged, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
            signal.Notify();
        });
        // As many workers as the setting may ever ask for; those above the current number stay parked.
        var workers = Enumerable.Range(0, SettingCatalog.MaxConcurrentJobs).Select(index => WorkAsync(index, stoppingToken));
        await Task.WhenAll(workers);
    }

    private async Task WorkAsync(int index, CancellationToken stoppingToken)
    {
        // Said on first finding the queue paused, and again each time an added job wakes us while it
        // still is: a job that does not start says why.
        var sayPaused = true;
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                var changed = Volatile.Read(ref _settingsChanged).Task;
                if (index >= Math.Clamp(options.CurrentValue.Queue.MaxConcurrentJobs, 1, SettingCatalog.MaxConcurrentJobs))
                {
                    await changed.WaitAsync(stoppingToken);
                    continue;
                }

                if (pause.IsPaused)
                {
                    if (sayPaused)
                        logger.LogInformation("The queue is paused: queued jobs wait for mode=resume");
                    // mode=resume notifies the signal.
                    sayPaused = await signal.WaitAsync(RescanInterval, stoppingToken);
                    continue;
                }

                sayPaused = true;

                // A node that holds no provider connection (the others hold the whole cap for now)
                // leaves the queue to them rather than take a job it cannot fetch for.
                if (usenet is not null && leases?.NotReadyReason(usenet.CurrentValue) is not null)
                {
                    await signal.WaitAsync(LeaseWait, stoppingToken);
                    continue;
                }

                var job = await claims.ClaimNextAsync(stoppingToken);
                if (job is null)
                {
                    await signal.WaitAsync(RescanInterval, stoppingToken);
                    continue;
                }

                // Another job may be waiting for an idle worker.
                signal.Notify();
                await ProcessAsync(job, stoppingToken);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception ex) when (ex is DbUpdateException or System.Data.Common.DbException or InvalidOperationException or IOException or TimeoutException)
            {
                logger.LogError(ex, "The ingestion queue hit a storage error; retrying");
                await Task.Delay(RescanInterval, time, stoppingToken);
            }
        }
    }

    private async Task ProcessAsync(Job job, CancellationToken stoppingToken)
    {
        using var jobCancellation = cancellations.Register(job.Id, stoppingToken);
        var jobProgress = progress.Start(job.Id);
        var started = Stopwatch.GetTimestamp();
        var completed = false;
        try
        {
            byte[]? nzb;
            await using (var context = await contextFactory.CreateDbContextAsync(stoppingToken))
            {
                nzb = await context.JobNzbs.Where(n => n.JobId == job.Id).Select(n => n.GzipData).FirstOrDefaultAsync(stoppingToken);
            }

            if (nzb is null)
            {
                await completion.FailAsync(job.Id, job.ClaimedBy, "The stored NZB is missing.", stoppingToken);
                metrics?.JobEnded(completed: false, Stopwatch.GetElapsedTime(started));
                return;
            }

            logger.LogInformation("Ingesting {NzoId} {JobName}, added {AddedMs:F0} ms ago", job.NzoId, job.Name, (DateTime.UtcNow - job.AddedAt).TotalMilliseconds);
            var files = await ingestor.IngestAsync(job.Name, nzb, job.Password, jobCancellation.Token, jobProgress);
            jobProgress.Enter("Saving to the library");
            var saving = Stopwatch.GetTimestamp();
            await completion.CompleteAsync(job, files, stoppingToken);
            completed = true;
            metrics?.JobEnded(completed: true, Stopwatch.GetElapsedTime(started));
            logger.LogInformation("Saved {NzoId} in {SaveMs:F0} ms", job.NzoId, Stopwatch.GetElapsedTime(saving).TotalMilliseconds);
        }
        catch (IngestionFailedException ex)
        {
            logger.LogWarning("Job {NzoId} {JobName} failed: {Reason}", job.NzoId, job.Name, ex.Message);
            await completion.FailAsync(job.Id, job.ClaimedBy, ex.Message, stoppingToken);
            metrics?.JobEnded(completed: false, Stopwatch.GetElapsedTime(started));
        }
        catch (OperationCanceledException) when (!stoppingToken.IsCancellationRequested)
        {
            // Deleted or paused through the API, which already saved the new state.
            logger.LogInformation("Ingestion of {NzoId} was cancelled", job.NzoId);
        }
        finally
        {
            cancellations.Unregister(job.Id);
            progress.Finish(jobProgress, completed);
        }
    }
}

using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;

namespace NzbDav.Tools.Demo;

/// <summary>Waits until the demo jobs leave the queue: all Completed, or the first failure's reason as an error.</summary>
internal static class DemoCompletion
{
    // Ingesting the samples takes seconds; this only bounds a demo that can never become ready.
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(2);
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(100);

    public static async Task WaitAsync(IServiceProvider services, IReadOnlyCollection<string> nzoIds, CancellationToken cancellationToken)
    {
        var factory = services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(Deadline);
        try
        {
            while (true)
            {
                await using (var context = await factory.CreateDbContextAsync(deadline.Token))
                {
                    var jobs = await context.Jobs.AsNoTracking()
                        .Where(j => nzoIds.Contains(j.NzoId))
                        .Select(j => new { j.Name, j.Status, j.FailMessage })
                        .ToListAsync(deadline.Token);
                    if (jobs.FirstOrDefault(j => j.Status == JobStatus.Failed) is { } failed)
                        throw new DemoFailedException($"The demo job {failed.Name} failed: {failed.FailMessage}");
                    if (jobs.Count == nzoIds.Count && jobs.All(j => j.Status == JobStatus.Completed))
                        return;
                }

                await Task.Delay(PollInterval, deadline.Token);
            }
        }
        catch (OperationCanceledException ex) when (!cancellationToken.IsCancellationRequested)
        {
            throw new DemoFailedException($"The demo jobs did not complete within {Deadline.TotalMinutes} minutes.", ex);
        }
    }
}

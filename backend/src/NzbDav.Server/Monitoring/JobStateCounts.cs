using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;

namespace NzbDav.Server.Monitoring;

/// <summary>
/// Jobs per status, counted in the store right before each scrape: one <c>COUNT … GROUP BY</c> on an
/// indexed column, cheaper than keeping a second set of counts in step with every status change.
/// </summary>
public sealed class JobStateCounts(IDbContextFactory<NzbDavDbContext> contextFactory, ILogger<JobStateCounts> logger) : IMetricsRefresh
{
    private static readonly JobStatus[] Statuses = Enum.GetValues<JobStatus>();

    private int[] _counts = new int[Statuses.Length];

    /// <summary>Every status with its count at the last refresh (0 before the first).</summary>
    public IEnumerable<(JobStatus Status, int Count)> Current
    {
        get
        {
            var counts = Volatile.Read(ref _counts);
            return Statuses.Select((status, i) => (status, counts[i]));
        }
    }

    public async Task RefreshAsync(CancellationToken cancellationToken)
    {
        try
        {
            await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
            var rows = await context.Jobs.GroupBy(j => j.Status).Select(g => new { Status = g.Key, Count = g.Count() }).ToListAsync(cancellationToken);
            var counts = new int[Statuses.Length];
            foreach (var row in rows)
            {
                var index = Array.IndexOf(Statuses, row.Status);
                if (index >= 0)
                    counts[index] = row.Count;
            }

            Volatile.Write(ref _counts, counts);
        }
        catch (Exception ex) when (ex is System.Data.Common.DbException or InvalidOperationException)
        {
            // A scrape before the store is migrated, or a locked database: the last counts stand.
            logger.LogDebug(ex, "Could not count jobs for /metrics");
        }
    }
}

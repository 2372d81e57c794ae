using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Monitoring;

namespace NzbDav.Server.Health;

/// <summary>Library files per health state, counted in the store before each scrape (one indexed GROUP BY).</summary>
public sealed class FileHealthCounts(IDbContextFactory<NzbDavDbContext> contextFactory, ILogger<FileHealthCounts> logger) : IMetricsRefresh
{
    private static readonly FileHealthState[] States = Enum.GetValues<FileHealthState>();

    private int[] _counts = new int[States.Length];

    public IEnumerable<(FileHealthState State, int Count)> Current
    {
        get
        {
            var counts = Volatile.Read(ref _counts);
            return States.Select((state, i) => (state, counts[i]));
        }
    }

    public async Task RefreshAsync(CancellationToken cancellationToken)
    {
        try
        {
            await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
            var rows = await context.FileHealth.GroupBy(h => h.State).Select(g => new { State = g.Key, Count = g.Count() }).ToListAsync(cancellationToken);
            var counts = new int[States.Length];
            foreach (var row in rows)
            {
                var index = Array.IndexOf(States, row.State);
                if (index >= 0)
                    counts[index] = row.Count;
            }
            Volatile.Write(ref _counts, counts);
        }
        catch (Exception ex) when (ex is System.Data.Common.DbException or InvalidOperationException)
        {
            logger.LogDebug(ex, "Could not count file health states for /metrics");
        }
    }
}

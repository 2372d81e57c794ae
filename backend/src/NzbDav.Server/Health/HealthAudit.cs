using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;

namespace NzbDav.Server.Health;

/// <summary>The health audit log: every state change, repair step and user action, in the store.</summary>
public sealed class HealthAudit(IDbContextFactory<NzbDavDbContext> contextFactory, TimeProvider time)
{
    /// <summary>Entries kept; older ones go when new ones are written.</summary>
    public const int Kept = 10_000;

    public async Task WriteAsync(IEnumerable<HealthAuditEntry> entries, CancellationToken cancellationToken)
    {
        var list = entries.ToList();
        if (list.Count == 0)
            return;
        var now = time.GetUtcNow().UtcDateTime;
        foreach (var entry in list)
        {
            if (entry.At == default)
                entry.At = now;
        }
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        context.HealthAudit.AddRange(list);
        await context.SaveChangesAsync(cancellationToken);
        var newest = list.Max(e => e.Id);
        if (newest > Kept && newest % 100 == 0)
            await context.HealthAudit.Where(e => e.Id <= newest - Kept).ExecuteDeleteAsync(cancellationToken);
    }

    public Task WriteAsync(HealthAuditEntry entry, CancellationToken cancellationToken) => WriteAsync([entry], cancellationToken);

    public static HealthAuditEntry Entry(Guid? itemId, Guid? jobId, string path, string action, string detail) =>
        new() { DavItemId = itemId, JobId = jobId, Path = path, Action = action, Detail = detail };
}

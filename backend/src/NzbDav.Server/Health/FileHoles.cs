using System.Collections.Concurrent;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;

namespace NzbDav.Server.Health;

/// <summary>
/// The confirmed holes of every file that plays through them (Degraded), by library item, for the
/// WebDAV opener: read on every GET, so kept in memory and changed only when a check changes them.
/// </summary>
public sealed class FileHoles(IDbContextFactory<NzbDavDbContext> contextFactory, IOptionsMonitor<HealthOptions> options, ILogger<FileHoles> logger)
{
    private readonly ConcurrentDictionary<Guid, IReadOnlySet<string>> _holes = new();
    private readonly ConcurrentDictionary<Guid, byte> _logged = new();

    /// <summary>The holes of <paramref name="itemId"/>, or null when it has none to fill.</summary>
    public IReadOnlySet<string>? For(Guid itemId) =>
        options.CurrentValue.ZeroFillHoles && _holes.TryGetValue(itemId, out var holes) ? holes : null;

    /// <summary>Files with holes to fill now.</summary>
    public int Count => _holes.Count;

    public void Set(Guid itemId, IReadOnlyCollection<string> holes)
    {
        if (holes.Count == 0)
            _holes.TryRemove(itemId, out _);
        else
            _holes[itemId] = holes.ToHashSet(StringComparer.Ordinal);
    }

    public void Remove(Guid itemId) => _holes.TryRemove(itemId, out _);

    /// <summary>True the first time it is asked for a file (per server run): holes are logged once per file.</summary>
    public bool FirstFill(Guid itemId) => _logged.TryAdd(itemId, 0);

    /// <summary>Loads the Degraded files' holes (at start, after the store is migrated).</summary>
    public async Task LoadAsync(CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var rows = await context.FileHealth.AsNoTracking()
            .Where(h => h.State == FileHealthState.Degraded && h.MissingIds != null)
            .Select(h => new { h.DavItemId, h.MissingIds })
            .ToListAsync(cancellationToken);
        foreach (var row in rows)
            Set(row.DavItemId, HealthIds.Split(row.MissingIds));
        if (rows.Count > 0)
            logger.LogInformation("{Files} Degraded file(s) play through their confirmed holes as zeros", rows.Count);
    }
}

using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;

namespace NzbDav.Server.Configuration;

/// <summary>The single-value rows of <c>ConfigItems</c> (the API key, the WebDAV password hash).</summary>
internal static class StoredConfigItems
{
    /// <summary>Adds or replaces the row <paramref name="key"/> and saves.</summary>
    public static async Task SetAsync(NzbDavDbContext context, string key, string value, CancellationToken cancellationToken)
    {
        var row = await context.ConfigItems.FirstOrDefaultAsync(c => c.Key == key, cancellationToken);
        if (row is null)
            context.ConfigItems.Add(new ConfigItem { Key = key, Value = value });
        else
            row.Value = value;
        await context.SaveChangesAsync(cancellationToken);
    }
}

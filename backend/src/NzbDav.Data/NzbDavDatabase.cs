using Microsoft.EntityFrameworkCore;

namespace NzbDav.Data;

/// <summary>Startup helpers for the store.</summary>
public static class NzbDavDatabase
{
    /// <summary>Applies every pending migration (creating the database on first start).</summary>
    public static async Task MigrateAsync(IDbContextFactory<NzbDavDbContext> factory, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(factory);
        var context = await factory.CreateDbContextAsync(cancellationToken).ConfigureAwait(false);
        await using (context.ConfigureAwait(false))
        {
            await context.Database.MigrateAsync(cancellationToken).ConfigureAwait(false);
        }
    }
}

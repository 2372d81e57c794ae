using System.Collections.Frozen;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration.Json;
using NzbDav.Data;
using NzbDav.Data.Entities;

namespace NzbDav.Server.Configuration;

/// <summary>
/// The secrets the server made or was given through the web UI — the generated SABnzbd API key, the
/// WebDAV password's hash, the UI administrator — as the lowest configuration layer, below
/// <c>appsettings.json</c>: whatever a file, the environment or the command line sets wins, and
/// every check reads the value in effect through <c>IOptionsMonitor</c>, so a change made here
/// (regenerating the API key, a new password) applies to every check at once.
/// </summary>
/// <remarks>The rows keep the keys libraries have always stored them under; <see cref="Keys"/> maps them.</remarks>
public sealed class StoredSecretsSource : IConfigurationSource
{
    /// <summary>The generated SABnzbd API key (a configured <c>NzbDav:ApiKey</c> wins over it).</summary>
    public const string ApiKey = "NzbDav:GeneratedApiKey";

    /// <summary>The WebDAV password as a PBKDF2 hash (generated at first start or set in the UI).</summary>
    public const string WebDavPasswordHash = "NzbDav:WebDav:PasswordHash";

    public const string UiUser = "NzbDav:Ui:Account:User";

    public const string UiPasswordHash = "NzbDav:Ui:Account:PasswordHash";

    /// <summary>Changes with every change of the UI account; sessions carry it.</summary>
    public const string UiStamp = "NzbDav:Ui:Account:Stamp";

    /// <summary>Configuration key → the row of <c>ConfigItems</c> that holds it.</summary>
    internal static readonly IReadOnlyDictionary<string, string> Keys = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase)
    {
        [ApiKey] = "api.key",
        [WebDavPasswordHash] = "webdav.password",
        [UiUser] = "ui.admin.user",
        [UiPasswordHash] = "ui.admin.password",
        [UiStamp] = "ui.admin.stamp",
    };

    private StoredSecretsSource(LibraryStore store) => Provider = new StoredSecretsProvider(store);

    public StoredSecretsProvider Provider { get; }

    public IConfigurationProvider Build(IConfigurationBuilder builder) => Provider;

    /// <summary>Inserts the layer before the first JSON file, reading the rows already in <paramref name="store"/>.</summary>
    public static StoredSecretsSource Add(ConfigurationManager configuration, LibraryStore store)
    {
        ArgumentNullException.ThrowIfNull(configuration);
        var source = new StoredSecretsSource(store);
        var sources = configuration.Sources;
        var firstFile = 0;
        while (firstFile < sources.Count && sources[firstFile] is not JsonConfigurationSource)
        {
            firstFile++;
        }

        sources.Insert(firstFile == sources.Count ? 0 : firstFile, source);
        return source;
    }
}

/// <summary>The stored secrets layer; see <see cref="StoredSecretsSource"/>.</summary>
public sealed class StoredSecretsProvider(LibraryStore store) : ConfigItemsProvider(store)
{
    // A constant table (row name → configuration key), frozen: nothing can change it after start.
    private static readonly FrozenDictionary<string, string> ByRow = StoredSecretsSource.Keys.ToFrozenDictionary(static p => p.Value, static p => p.Key, StringComparer.Ordinal);

    protected override string? KeyOf(string row) => ByRow.GetValueOrDefault(row);
}

/// <summary>Writes the stored secrets (<see cref="StoredSecretsSource"/>) and puts them in effect.</summary>
public sealed class StoredSecrets(StoredSecretsSource source, IConfiguration configuration, IDbContextFactory<NzbDavDbContext> contextFactory, Cluster.ClusterNotifications? cluster = null)
{
    /// <summary>
    /// Whether the value of <paramref name="key"/> in effect is this layer's (or nothing sets it):
    /// false when a file, the environment or the command line sets it, which a change here could not override.
    /// </summary>
    public bool Owns(string key)
    {
        foreach (var provider in ((IConfigurationRoot)configuration).Providers)
        {
            if (!ReferenceEquals(provider, source.Provider) && provider.TryGet(key, out var value) && !string.IsNullOrEmpty(value))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Stores the values (configuration keys of <see cref="StoredSecretsSource"/>) in one transaction, then puts them in effect.</summary>
    public async Task SetAsync(IReadOnlyDictionary<string, string> values, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(values);
        await using (var context = await contextFactory.CreateDbContextAsync(cancellationToken))
        {
            await using var transaction = await context.Database.BeginTransactionAsync(cancellationToken);
            foreach (var (key, value) in values)
            {
                var rowKey = StoredSecretsSource.Keys[key];
                var row = await context.ConfigItems.FirstOrDefaultAsync(c => c.Key == rowKey, cancellationToken);
                if (row is null)
                    context.ConfigItems.Add(new ConfigItem { Key = rowKey, Value = value });
                else
                    row.Value = value;
            }

            await context.SaveChangesAsync(cancellationToken);
            await transaction.CommitAsync(cancellationToken);
        }

        source.Provider.Reload();
        cluster?.Publish(Cluster.ClusterNotifications.SecretsTopic);
    }

    /// <summary>Reads the rows again (after the store was migrated at start).</summary>
    public void Reload() => source.Provider.Reload();
}

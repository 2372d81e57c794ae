using NzbDav.Data;

namespace NzbDav.Server.Configuration;

/// <summary>
/// The settings saved from the web UI (rows of <c>ConfigItems</c> whose key starts with
/// <see cref="KeyPrefix"/>) as a configuration layer: above <c>appsettings.json</c> and
/// <c>settings.json</c>, below the environment and the command line. <see cref="StoredSettings"/>
/// writes the rows and hands the new set to <see cref="StoredSettingsProvider.Replace"/>, which raises the reload every
/// <c>IOptionsMonitor</c> follows.
/// </summary>
public sealed class StoredSettingsSource : IConfigurationSource
{
    /// <summary>Rows with this key prefix are configuration keys (the rest of the key, e.g. <c>Usenet:Limiter:QueueGuarantee</c>).</summary>
    public const string KeyPrefix = "setting:";

    private StoredSettingsSource(LibraryStore store) => Provider = new StoredSettingsProvider(store);

    public StoredSettingsProvider Provider { get; }

    public IConfigurationProvider Build(IConfigurationBuilder builder) => Provider;

    /// <summary>
    /// Inserts the layer right after the last JSON file (settings.json) and before the environment
    /// and command line, reading the rows already in <paramref name="store"/>.
    /// </summary>
    public static StoredSettingsSource Add(ConfigurationManager configuration, LibraryStore store)
    {
        ArgumentNullException.ThrowIfNull(configuration);
        var source = new StoredSettingsSource(store);
        // Called after RuntimeSettings.Add, so the last JSON file is settings.json.
        RuntimeSettings.InsertAfterLastJsonFile(configuration, source);
        return source;
    }
}

/// <summary>The stored settings layer; see <see cref="StoredSettingsSource"/>.</summary>
public sealed class StoredSettingsProvider(LibraryStore store) : ConfigItemsProvider(store)
{
    protected override string? KeyOf(string row) =>
        row.StartsWith(StoredSettingsSource.KeyPrefix, StringComparison.Ordinal) ? row[StoredSettingsSource.KeyPrefix.Length..] : null;

    /// <summary>The stored keys and values (without the prefix).</summary>
    public IReadOnlyDictionary<string, string?> Snapshot() => new Dictionary<string, string?>(Data, StringComparer.OrdinalIgnoreCase);

    /// <summary>Puts a new set in effect (already written to the database) and raises the reload.</summary>
    public void Replace(IReadOnlyDictionary<string, string?> values)
    {
        Data = new Dictionary<string, string?>(values, StringComparer.OrdinalIgnoreCase);
        OnReload();
    }
}

using System.Globalization;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration.CommandLine;
using Microsoft.Extensions.Configuration.EnvironmentVariables;
using Microsoft.Extensions.Configuration.Memory;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Health.Arr;
using NzbDav.Streaming;
using NzbDav.Usenet.Configuration;
using NzbDav.Usenet.Providers;
using NzbDav.Server.WebDav;

namespace NzbDav.Server.Configuration;

/// <summary>A change the settings refuse; <see cref="Kind"/> says which HTTP answer it becomes.</summary>
public sealed class SettingsRefusedException(string message, SettingsRefusal kind = SettingsRefusal.Invalid) : Exception(message)
{
    public SettingsRefusal Kind { get; } = kind;
}

public enum SettingsRefusal
{
    /// <summary>The value or the resulting configuration is not acceptable.</summary>
    Invalid,

    /// <summary>No such provider or Arr instance.</summary>
    NotFound,

    /// <summary>A higher layer (environment, command line) or a file owns it.</summary>
    Locked,
}

/// <summary>A setting as the UI shows it: its definition, its value in effect, and who set it.</summary>
public sealed record SettingView(SettingDefinition Definition, string? Value, bool Stored, bool Locked, string Source);

/// <summary>A provider as the UI shows it; <see cref="Editable"/> is false for the ones from files, the environment or the command line.</summary>
public sealed record ProviderView(UsenetProviderOptions Options, bool Editable, string Source);

/// <summary>A Sonarr or Radarr instance as the UI shows it; <see cref="Editable"/> as for <see cref="ProviderView"/>.</summary>
public sealed record ArrInstanceView(ArrInstanceOptions Options, bool Editable, string Source);

/// <summary>
/// The settings saved from the web UI: reads them with their layer of origin, checks a change
/// against the whole resulting configuration (so an edit that leaves streaming less than half the
/// budget, or two providers with one name, is refused with the reason), writes the rows in one
/// transaction and puts them in effect through <see cref="StoredSettingsProvider.Replace"/>. The
/// options monitors then carry them to the running client, limiter, streams and queue.
/// </summary>
/// <remarks>
/// Providers added in the UI live at indices from <see cref="FirstUiProviderIndex"/> of
/// <c>Usenet:Providers</c>, clear of the ones files and the environment number from 0 (lists merge
/// by index); those stay as their owners wrote them. Sonarr and Radarr instances likewise, from
/// <see cref="FirstUiArrIndex"/> of <c>Arr:Instances</c>.
/// </remarks>
public sealed partial class StoredSettings(
    IConfiguration configuration,
    StoredSettingsSource source,
    IDbContextFactory<NzbDavDbContext> contextFactory,
    ILogger<StoredSettings> logger,
    Cluster.ClusterNotifications? cluster = null) : IDisposable
{
    public const int FirstUiProviderIndex = 1000;

    public const int FirstUiArrIndex = 1000;

    private const string ProvidersKey = "Usenet:Providers";
    private const string ArrInstancesKey = "Arr:Instances";
    private static readonly string[] Sections = ["Usenet", "Streaming", "NzbDav", ArrOptions.SectionName];
    private readonly SemaphoreSlim _writes = new(1, 1);

    private IConfigurationRoot Root => (IConfigurationRoot)configuration;

    private StoredSettingsProvider Own => source.Provider;

    public void Dispose() => _writes.Dispose();

    /// <summary>Every setting of <see cref="SettingCatalog"/> as it is in effect.</summary>
    public IReadOnlyList<SettingView> Settings()
    {
        var own = Own.Snapshot();
        return SettingCatalog.All.Select(definition =>
        {
            var value = definition.Type is SettingType.List
                ? string.Join(", ", Root.GetSection(definition.Key).GetChildren().Select(static c => c.Value?.Trim()).Where(static v => !string.IsNullOrEmpty(v)))
                : Root[definition.Key];
            var setBy = SourceOf(definition.Key);
            if (setBy is null)
            {
                value = DefaultOf(definition);
            }
            else if (definition.Type is SettingType.List && string.IsNullOrEmpty(value))
            {
                value = null;
            }
            else if (definition.Nullable && string.IsNullOrEmpty(value))
            {
                value = null;
            }

            var stored = own.Keys.Any(k => IsAtOrUnder(k, definition.Key));
            return new SettingView(definition, value, stored, IsLocked(definition.Key), setBy ?? "default");
        }).ToList();
    }

    /// <summary>Every configured provider, the UI's after the others.</summary>
    public IReadOnlyList<ProviderView> Providers()
    {
        var own = Own.Snapshot();
        var views = new List<ProviderView>();
        foreach (var child in Root.GetSection(ProvidersKey).GetChildren())
        {
            UsenetProviderOptions? options;
            try
            {
                options = child.Get<UsenetProviderOptions>();
            }
            catch (InvalidOperationException)
            {
                options = null;
            }

            if (options is null)
            {
                continue;
            }

            var editable = IsUiIndex(child.Key) && own.ContainsKey(child.Path + ":Name") && !IsLocked(child.Path);
            views.Add(new ProviderView(options, editable, SourceOf(child.Path + ":Name") ?? "default"));
        }

        return views;
    }

    /// <summary>Whether a layer above the UI's (environment, command line) sets <paramref name="key"/> or anything under it.</summary>
    public bool IsLocked(string key)
    {
        var providers = Root.Providers.ToList();
        var own = providers.IndexOf(Own);
        for (var i = own + 1; i < providers.Count; i++)
        {
            if (Sets(providers[i], key))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The layer whose value of <paramref name="key"/> is in effect, in words; null when no layer sets it.</summary>
    public string? SourceOf(string key)
    {
        foreach (var provider in Root.Providers.Reverse())
        {
            if (Sets(provider, key))
            {
                return Describe(provider);
            }
        }

        return null;
    }

    /// <summary>
    /// Saves settings: a null value removes the UI's own value (the layer below is in effect again),
    /// an empty one means "automatic" for a nullable setting. All or nothing.
    /// </summary>
    public async Task SaveSettingsAsync(IReadOnlyDictionary<string, string?> changes, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(changes);
        await _writes.WaitAsync(cancellationToken);
        try
        {
            var next = new Dictionary<string, string?>(Own.Snapshot(), StringComparer.OrdinalIgnoreCase);
            foreach (var (key, value) in changes)
            {
                var definition = SettingCatalog.Find(key) ?? throw new SettingsRefusedException($"'{key}' is not a setting the UI changes.");
                if (IsLocked(definition.Key))
                {
                    throw new SettingsRefusedException(
                        $"{definition.Label} is set by the {SourceOf(definition.Key)} ({definition.Key}); change it there.", SettingsRefusal.Locked);
                }

                foreach (var stale in next.Keys.Where(k => IsAtOrUnder(k, definition.Key)).ToList())
                {
                    next.Remove(stale);
                }

                if (value is null)
                {
                    continue;
                }

                var normalized = SettingCatalog.Normalize(definition, value, out var error);
                if (error is not null)
                {
                    throw new SettingsRefusedException(error);
                }

                if (definition.Type is SettingType.List)
                {
                    var items = normalized.Length == 0 ? [] : normalized.Split(", ");
                    // Entries of a longer list below would show through (lists merge by index): blank them.
                    var count = Math.Max(items.Length, LowerListLength(definition.Key));
                    for (var i = 0; i < count; i++)
                    {
                        next[$"{definition.Key}:{i}"] = i < items.Length ? items[i] : "";
                    }
                }
                else
                {
                    next[definition.Key] = normalized;
                }
            }

            await CommitAsync(next, cancellationToken);
        }
        finally
        {
            _writes.Release();
        }
    }

    /// <summary>Saves configuration keys the UI sets through calls of their own (the WebDAV user name), refusing locked ones.</summary>
    internal async Task SaveValuesAsync(IReadOnlyDictionary<string, string?> values, CancellationToken cancellationToken)
    {
        await _writes.WaitAsync(cancellationToken);
        try
        {
            var next = new Dictionary<string, string?>(Own.Snapshot(), StringComparer.OrdinalIgnoreCase);
            foreach (var (key, value) in values)
            {
                if (IsLocked(key))
                {
                    throw new SettingsRefusedException($"{key} is set by the {SourceOf(key)}; change it there.", SettingsRefusal.Locked);
                }

                if (value is null)
                {
                    next.Remove(key);
                }
                else
                {
                    next[key] = value;
                }
            }

            await CommitAsync(next, cancellationToken);
        }
        finally
        {
            _writes.Release();
        }
    }

    /// <summary>
    /// Adds (<paramref name="originalName"/> null) or replaces a UI provider, as it is: the caller
    /// has put the stored password in when the UI sent none (<see cref="EntityFields{T}.WithSecretsOf"/>).
    /// </summary>
    public async Task SaveProviderAsync(string? originalName, UsenetProviderOptions provider, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(provider);
        await _writes.WaitAsync(cancellationToken);
        try
        {
            var own = Own.Snapshot();
            var list = UiProviders(own);
            var at = originalName is null ? -1 : list.FindIndex(p => NameOf(p).Equals(originalName, StringComparison.OrdinalIgnoreCase));
            if (originalName is not null && at < 0)
            {
                throw NotOurs(originalName);
            }

            var clash = Providers().FirstOrDefault(p => p.Options.Name.Equals(provider.Name, StringComparison.OrdinalIgnoreCase)
                && !(originalName is not null && p.Options.Name.Equals(originalName, StringComparison.OrdinalIgnoreCase) && p.Editable));
            if (clash is not null)
            {
                throw new SettingsRefusedException($"A provider named '{provider.Name}' exists already (from the {clash.Source}); names must be unique.");
            }

            var fields = at >= 0 ? list[at] : new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
            ProviderFields.All.Write(provider, fields);
            if (at >= 0)
            {
                list[at] = fields;
            }
            else
            {
                list.Add(fields);
            }

            await CommitAsync(WithProviders(own, list), cancellationToken);
        }
        finally
        {
            _writes.Release();
        }
    }

    /// <summary>Removes a UI provider; its sessions close and its streams fail over.</summary>
    public async Task DeleteProviderAsync(string name, CancellationToken cancellationToken)
    {
        await _writes.WaitAsync(cancellationToken);
        try
        {
            var own = Own.Snapshot();
            var list = UiProviders(own);
            var removed = list.RemoveAll(p => NameOf(p).Equals(name, StringComparison.OrdinalIgnoreCase));
            if (removed == 0)
            {
                throw NotOurs(name);
            }

            await CommitAsync(WithProviders(own, list), cancellationToken);
        }
        finally
        {
            _writes.Release();
        }
    }

    /// <summary>Why the UI cannot change the provider <paramref name="name"/>: another layer owns it (409), or there is none (404).</summary>
    internal SettingsRefusedException NotOurs(string name) =>
        Providers().FirstOrDefault(p => p.Options.Name.Equals(name, StringComparison.OrdinalIgnoreCase)) is { } other
            ? new SettingsRefusedException($"Provider '{name}' comes from the {other.Source}; change it there.", SettingsRefusal.Locked)
            : new SettingsRefusedException($"There is no provider named '{name}'.", SettingsRefusal.NotFound);

    /// <summary>Checks the configuration <paramref name="next"/> would make, then stores it and puts it in effect.</summary>
    private async Task CommitAsync(Dictionary<string, string?> next, CancellationToken cancellationToken)
    {
        Check(next);
        await using (var context = await contextFactory.CreateDbContextAsync(cancellationToken))
        {
            await using var transaction = await context.Database.BeginTransactionAsync(cancellationToken);
            var rows = await context.ConfigItems.Where(c => c.Key.StartsWith(StoredSettingsSource.KeyPrefix)).ToListAsync(cancellationToken);
            context.ConfigItems.RemoveRange(rows);
            await context.SaveChangesAsync(cancellationToken);
            foreach (var (key, value) in next)
            {
                context.ConfigItems.Add(new ConfigItem { Key = StoredSettingsSource.KeyPrefix + key, Value = value ?? "" });
            }

            await context.SaveChangesAsync(cancellationToken);
            await transaction.CommitAsync(cancellationToken);
        }

        Own.Replace(next);
        cluster?.Publish(Cluster.ClusterNotifications.SettingsTopic);
        logger.LogInformation("Settings saved from the web UI: {Count} value(s) stored", next.Count);
    }

    /// <summary>Binds and validates the options the whole configuration would give with <paramref name="candidate"/> as the UI's layer.</summary>
    private void Check(Dictionary<string, string?> candidate)
    {
        var builder = new ConfigurationBuilder();
        foreach (var provider in Root.Providers)
        {
            var data = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
            if (ReferenceEquals(provider, Own))
            {
                foreach (var (key, value) in candidate)
                {
                    data[key] = value;
                }
            }
            else
            {
                foreach (var section in Sections)
                {
                    Flatten(provider, section, data);
                }
            }

            builder.Add(new MemoryConfigurationSource { InitialData = data });
        }

        var resulting = builder.Build();
        try
        {
            var usenet = resulting.GetSection("Usenet").Get<UsenetOptions>() ?? new UsenetOptions();
            usenet.Validate();
            (resulting.GetSection("Streaming").Get<StreamingOptions>() ?? new StreamingOptions()).Validate();
            (resulting.GetSection(ArrOptions.SectionName).Get<ArrOptions>() ?? new ArrOptions()).Validate();
            (resulting.GetSection(Health.HealthOptions.SectionName).Get<Health.HealthOptions>() ?? new Health.HealthOptions()).Validate();
        }
        catch (Exception error) when (error is ArgumentException or InvalidOperationException or FormatException)
        {
            throw new SettingsRefusedException(Labelled(error.Message));
        }
    }

    /// <summary>A refusal that names a setting by its key names it as the Settings page does too: "Bandwidth schedule (Usenet:Bandwidth:Schedule): …".</summary>
    private static string Labelled(string message)
    {
        foreach (var definition in SettingCatalog.All)
        {
            if (message.StartsWith(definition.Key, StringComparison.Ordinal) && !message.StartsWith(definition.Label, StringComparison.Ordinal))
            {
                return $"{definition.Label} ({definition.Key}){message[definition.Key.Length..]}";
            }
        }
        return message;
    }

    private int LowerListLength(string key)
    {
        var providers = Root.Providers.ToList();
        var own = providers.IndexOf(Own);
        var length = 0;
        for (var i = 0; i < own; i++)
        {
            foreach (var child in providers[i].GetChildKeys([], key))
            {
                if (int.TryParse(child, NumberStyles.None, CultureInfo.InvariantCulture, out var index))
                {
                    length = Math.Max(length, index + 1);
                }
            }
        }

        return length;
    }

    private static List<Dictionary<string, string?>> UiProviders(IReadOnlyDictionary<string, string?> own) => UiEntries(own, ProvidersKey, FirstUiProviderIndex);

    private static Dictionary<string, string?> WithProviders(IReadOnlyDictionary<string, string?> own, List<Dictionary<string, string?>> providers) =>
        WithEntries(own, ProvidersKey, FirstUiProviderIndex, providers);

    /// <summary>The UI's entries of the list at <paramref name="listKey"/>, by index; a field may be a path itself (<c>Categories:0</c>).</summary>
    private static List<Dictionary<string, string?>> UiEntries(IReadOnlyDictionary<string, string?> own, string listKey, int firstIndex)
    {
        var byIndex = new SortedDictionary<int, Dictionary<string, string?>>();
        foreach (var (key, value) in own)
        {
            if (!IsAtOrUnder(key, listKey) || key.Length <= listKey.Length + 1)
            {
                continue;
            }

            var rest = key[(listKey.Length + 1)..];
            var colon = rest.IndexOf(':', StringComparison.Ordinal);
            if (colon > 0 && colon < rest.Length - 1
                && int.TryParse(rest[..colon], NumberStyles.None, CultureInfo.InvariantCulture, out var index) && index >= firstIndex)
            {
                if (!byIndex.TryGetValue(index, out var fields))
                {
                    byIndex[index] = fields = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
                }

                fields[rest[(colon + 1)..]] = value;
            }
        }

        return [.. byIndex.Values];
    }

    private static Dictionary<string, string?> WithEntries(
        IReadOnlyDictionary<string, string?> own, string listKey, int firstIndex, List<Dictionary<string, string?>> entries)
    {
        var next = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
        foreach (var (key, value) in own)
        {
            if (!IsAtOrUnder(key, listKey))
            {
                next[key] = value;
            }
        }

        for (var i = 0; i < entries.Count; i++)
        {
            foreach (var (field, value) in entries[i])
            {
                next[$"{listKey}:{firstIndex + i}:{field}"] = value;
            }
        }

        return next;
    }

    private static string NameOf(Dictionary<string, string?> fields) => fields.GetValueOrDefault(nameof(UsenetProviderOptions.Name)) ?? "";

    private static bool IsUiIndex(string key) =>
        int.TryParse(key, NumberStyles.None, CultureInfo.InvariantCulture, out var index) && index >= FirstUiProviderIndex;

    private static bool IsAtOrUnder(string key, string prefix) =>
        key.Equals(prefix, StringComparison.OrdinalIgnoreCase)
        || (key.Length > prefix.Length && key[prefix.Length] == ':' && key.StartsWith(prefix, StringComparison.OrdinalIgnoreCase));

    /// <summary>Whether the layer sets <paramref name="key"/>, or anything under it (a list, a provider).</summary>
    private static bool Sets(IConfigurationProvider provider, string key) =>
        provider.TryGet(key, out _) || provider.GetChildKeys([], key).Any();

    private static void Flatten(IConfigurationProvider provider, string path, Dictionary<string, string?> into)
    {
        if (provider.TryGet(path, out var value))
        {
            into[path] = value;
        }

        foreach (var child in provider.GetChildKeys([], path).Distinct(StringComparer.OrdinalIgnoreCase))
        {
            Flatten(provider, path + ":" + child, into);
        }
    }

    private static string Describe(IConfigurationProvider provider) => provider switch
    {
        StoredSettingsProvider => "web UI",
        FileConfigurationProvider file => Path.GetFileName(file.Source.Path) ?? "settings file",
        EnvironmentVariablesConfigurationProvider => "environment",
        CommandLineConfigurationProvider => "command line",
        DemoConfigurationProvider => "demo mode",
        _ => "host defaults",
    };

    /// <summary>The value a setting has when no layer sets it: its options class's default.</summary>
    private static string? DefaultOf(SettingDefinition definition)
    {
        var split = definition.Key.LastIndexOf(':');
        object? owner = definition.Key[..split] switch
        {
            "Streaming" => new StreamingOptions(),
            "NzbDav:Queue" => new QueueOptions(),
            "NzbDav:WebDav" => new WebDavOptions(),
            "NzbDav" => new NzbDavOptions(),
            "Health" => new Health.HealthOptions(),
            "Mount" => new Mount.MountOptions(),
            _ => null,
        };
        if (definition.Type is SettingType.List)
        {
            return null;
        }

        var value = owner?.GetType().GetProperty(definition.Key[(split + 1)..])?.GetValue(owner);
        return value switch
        {
            null => null,
            bool flag => flag ? "true" : "false",
            IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
            _ => value.ToString(),
        };
    }
}

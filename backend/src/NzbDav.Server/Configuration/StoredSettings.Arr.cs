using System.Globalization;
using NzbDav.Server.Health.Arr;

namespace NzbDav.Server.Configuration;

// Sonarr/Radarr instances: listed with their source, the UI's own added, changed and removed like providers.
public sealed partial class StoredSettings
{
    /// <summary>Every configured Sonarr and Radarr instance, the UI's after the others.</summary>
    public IReadOnlyList<ArrInstanceView> ArrInstances()
    {
        var own = Own.Snapshot();
        var views = new List<ArrInstanceView>();
        foreach (var child in Root.GetSection(ArrInstancesKey).GetChildren())
        {
            ArrInstanceOptions? options;
            try
            {
                options = child.Get<ArrInstanceOptions>();
            }
            catch (InvalidOperationException)
            {
                options = null;
            }

            if (options is null || string.IsNullOrWhiteSpace(options.Name))
            {
                continue;
            }

            var editable = IsUiIndex(child.Key) && own.ContainsKey(child.Path + ":Name") && !IsLocked(child.Path);
            views.Add(new ArrInstanceView(options, editable, SourceOf(child.Path + ":Name") ?? "default"));
        }

        return views;
    }

    /// <summary>
    /// Adds (<paramref name="originalName"/> null) or replaces a UI Sonarr/Radarr instance. An empty
    /// or null API key keeps the stored one (the UI never has it to send back).
    /// </summary>
    public async Task SaveArrInstanceAsync(string? originalName, ArrInstanceOptions instance, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(instance);
        await _writes.WaitAsync(cancellationToken);
        try
        {
            var own = Own.Snapshot();
            var list = UiEntries(own, ArrInstancesKey, FirstUiArrIndex);
            var at = originalName is null ? -1 : list.FindIndex(p => NameOf(p).Equals(originalName, StringComparison.OrdinalIgnoreCase));
            if (originalName is not null && at < 0)
            {
                throw NotOurArr(originalName);
            }

            var clash = ArrInstances().FirstOrDefault(p => p.Options.Name.Equals(instance.Name, StringComparison.OrdinalIgnoreCase)
                && !(originalName is not null && p.Options.Name.Equals(originalName, StringComparison.OrdinalIgnoreCase) && p.Editable));
            if (clash is not null)
            {
                throw new SettingsRefusedException($"A Sonarr/Radarr instance named '{instance.Name}' exists already (from the {clash.Source}); names must be unique.");
            }

            var fields = at >= 0 ? list[at] : new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
            var apiKey = string.IsNullOrEmpty(instance.ApiKey) ? fields.GetValueOrDefault(nameof(ArrInstanceOptions.ApiKey)) : instance.ApiKey;
            WriteArr(fields, instance with { ApiKey = apiKey ?? "" });
            if (at >= 0)
            {
                list[at] = fields;
            }
            else
            {
                list.Add(fields);
            }

            await CommitAsync(WithEntries(own, ArrInstancesKey, FirstUiArrIndex, list), cancellationToken);
        }
        finally
        {
            _writes.Release();
        }
    }

    /// <summary>Removes a UI Sonarr/Radarr instance; repairs no longer ask it.</summary>
    public async Task DeleteArrInstanceAsync(string name, CancellationToken cancellationToken)
    {
        await _writes.WaitAsync(cancellationToken);
        try
        {
            var own = Own.Snapshot();
            var list = UiEntries(own, ArrInstancesKey, FirstUiArrIndex);
            if (list.RemoveAll(p => NameOf(p).Equals(name, StringComparison.OrdinalIgnoreCase)) == 0)
            {
                throw NotOurArr(name);
            }

            await CommitAsync(WithEntries(own, ArrInstancesKey, FirstUiArrIndex, list), cancellationToken);
        }
        finally
        {
            _writes.Release();
        }
    }

    private SettingsRefusedException NotOurArr(string name) =>
        ArrInstances().FirstOrDefault(p => p.Options.Name.Equals(name, StringComparison.OrdinalIgnoreCase)) is { } other
            ? new SettingsRefusedException($"Arr instance '{name}' comes from the {other.Source}; change it there.", SettingsRefusal.Locked)
            : new SettingsRefusedException($"There is no Sonarr/Radarr instance named '{name}'.", SettingsRefusal.NotFound);

    private static void WriteArr(Dictionary<string, string?> fields, ArrInstanceOptions instance)
    {
        // Rewritten whole: a shorter category list must not leave the old entries behind.
        fields.Clear();
        fields[nameof(ArrInstanceOptions.Name)] = instance.Name;
        fields[nameof(ArrInstanceOptions.Kind)] = instance.Kind.ToString();
        fields[nameof(ArrInstanceOptions.Url)] = instance.Url;
        fields[nameof(ArrInstanceOptions.Enabled)] = instance.Enabled ? "true" : "false";
        fields[nameof(ArrInstanceOptions.Timeout)] = instance.Timeout.ToString("c", CultureInfo.InvariantCulture);
        SetOrRemove(fields, nameof(ArrInstanceOptions.ApiKey), instance.ApiKey);
        var categories = instance.EffectiveCategories();
        for (var i = 0; i < categories.Count; i++)
        {
            fields[$"{nameof(ArrInstanceOptions.Categories)}:{i.ToString(CultureInfo.InvariantCulture)}"] = categories[i];
        }
    }
}

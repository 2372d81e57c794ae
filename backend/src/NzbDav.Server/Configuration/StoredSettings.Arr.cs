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
    /// Adds (<paramref name="originalName"/> null) or replaces a UI Sonarr/Radarr instance, as it is:
    /// the caller has put the stored API key in when the UI sent none.
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
            ArrFields.All.Write(instance, fields);
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

    /// <summary>Why the UI cannot change the instance <paramref name="name"/>: another layer owns it (409), or there is none (404).</summary>
    internal SettingsRefusedException NotOurArr(string name) =>
        ArrInstances().FirstOrDefault(p => p.Options.Name.Equals(name, StringComparison.OrdinalIgnoreCase)) is { } other
            ? new SettingsRefusedException($"Arr instance '{name}' comes from the {other.Source}; change it there.", SettingsRefusal.Locked)
            : new SettingsRefusedException($"There is no Sonarr/Radarr instance named '{name}'.", SettingsRefusal.NotFound);
}

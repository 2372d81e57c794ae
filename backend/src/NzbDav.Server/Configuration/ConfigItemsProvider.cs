using System.Data.Common;
using NzbDav.Data;

namespace NzbDav.Server.Configuration;

/// <summary>
/// A configuration layer made of rows of the library's <c>ConfigItems</c> table. Before the store
/// exists or is migrated, or while it cannot be reached, the layer is empty (the store's initializer
/// reloads it); a SQLite file is opened read-only and never created here.
/// </summary>
public abstract class ConfigItemsProvider(LibraryStore store) : ConfigurationProvider
{
    /// <summary>The configuration key a row stands for, or null for a row of another layer.</summary>
    protected abstract string? KeyOf(string row);

    public override void Load()
    {
        var data = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
        if (store.MayExist)
        {
            try
            {
                using var connection = store.CreateConnection(readOnly: true);
                connection.Open();
                using var command = connection.CreateCommand();
                // The table holds a few hundred rows at most: each layer takes its own.
                command.CommandText = "SELECT \"Key\", \"Value\" FROM \"ConfigItems\"";
                using var reader = command.ExecuteReader();
                while (reader.Read())
                {
                    if (KeyOf(reader.GetString(0)) is { } key)
                    {
                        data[key] = reader.GetString(1);
                    }
                }
            }
            catch (DbException)
            {
                // No ConfigItems table yet (a database from before migration), or no database server
                // reachable: nothing stored as far as this layer knows; the initializer reads it again.
            }
        }

        Data = data;
    }

    /// <summary>Reads the rows again and raises the reload every options monitor follows.</summary>
    public void Reload()
    {
        Load();
        OnReload();
    }
}

using Microsoft.Data.Sqlite;
using NzbDav.Data;
using NzbDav.Server.Configuration;

namespace NzbDav.Tools.Testing.Crash;

/// <summary>
/// Reads the killed server's database directly, read-only, before the next start touches it:
/// <c>PRAGMA integrity_check</c>, the jobs with their library folders, and the settings the editor saves.
/// </summary>
public static class CrashStore
{
    public static async Task<CrashStoreSnapshot> ReadAsync(string dataDirectory, CancellationToken cancellationToken)
    {
        var path = Path.Combine(dataDirectory, DataServiceCollectionExtensions.DatabaseFileName);
        if (!File.Exists(path))
            return new CrashStoreSnapshot("ok", [], []);
        // Read-only and unpooled: the file is left exactly as the kill left it (a WAL file included,
        // which a reader uses but does not check-point), and nothing stays open for the next start.
        var connectionString = new SqliteConnectionStringBuilder { DataSource = path, Mode = SqliteOpenMode.ReadOnly, Pooling = false }.ToString();
        await using var connection = new SqliteConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        var integrity = string.Join("; ", await ColumnAsync(connection, "PRAGMA integrity_check", cancellationToken));
        // A kill during the first start's migration may leave the schema unfinished: then there is nothing yet.
        if (!await TableExistsAsync(connection, "Jobs", cancellationToken) || !await TableExistsAsync(connection, "DavItems", cancellationToken)
            || !await TableExistsAsync(connection, "ConfigItems", cancellationToken))
        {
            return new CrashStoreSnapshot(integrity, [], []);
        }

        var jobs = new List<CrashStoredJob>();
        await using (var command = connection.CreateCommand())
        {
            // A job's folder is its DavItem without a parent.
            command.CommandText = """
                SELECT j.NzoId, j.Name, j.Status, j.RemovedFromHistory, j.FailMessage,
                       (SELECT COUNT(*) FROM DavItems d WHERE d.JobId = j.Id AND d.ParentId IS NULL)
                FROM Jobs j
                """;
            await using var reader = await command.ExecuteReaderAsync(cancellationToken);
            while (await reader.ReadAsync(cancellationToken))
            {
                jobs.Add(new CrashStoredJob(reader.GetString(0), reader.GetString(1), reader.GetInt32(2), reader.GetBoolean(3), reader.GetInt32(5),
                    reader.IsDBNull(4) ? null : reader.GetString(4)));
            }
        }

        var settings = new List<string?>();
        await using (var command = connection.CreateCommand())
        {
            command.CommandText = "SELECT Key, Value FROM ConfigItems WHERE Key IN ($a, $b)";
            command.Parameters.AddWithValue("$a", StoredSettingsSource.KeyPrefix + CrashChecker.SettingKeys[0]);
            command.Parameters.AddWithValue("$b", StoredSettingsSource.KeyPrefix + CrashChecker.SettingKeys[1]);
            var values = new Dictionary<string, string>(StringComparer.Ordinal);
            await using var reader = await command.ExecuteReaderAsync(cancellationToken);
            while (await reader.ReadAsync(cancellationToken))
                values[reader.GetString(0)[StoredSettingsSource.KeyPrefix.Length..]] = reader.GetString(1);
            if (values.Count > 0)
                settings.AddRange(CrashChecker.SettingKeys.Select(k => values.GetValueOrDefault(k)));
        }

        return new CrashStoreSnapshot(integrity, jobs, settings);
    }

    private static async Task<bool> TableExistsAsync(SqliteConnection connection, string table, CancellationToken cancellationToken)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = $name";
        command.Parameters.AddWithValue("$name", table);
        return Convert.ToInt64(await command.ExecuteScalarAsync(cancellationToken), System.Globalization.CultureInfo.InvariantCulture) > 0;
    }

    private static async Task<List<string>> ColumnAsync(SqliteConnection connection, string sql, CancellationToken cancellationToken)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        var values = new List<string>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
            values.Add(reader.GetString(0));
        return values;
    }
}

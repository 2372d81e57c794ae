using NzbDav.Data;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.Hosting;

/// <summary>
/// <c>NzbDav --migrate-to-postgres</c>: copies the SQLite library of <c>NzbDav:DataDirectory</c> into
/// the empty PostgreSQL database of <c>Database:ConnectionString</c>, verifies every table and prints
/// what it did. Settings come as the server reads them (appsettings.json, the environment, the command
/// line), so the same <c>Database__ConnectionString</c> serves both. The SQLite file is left as it was.
/// </summary>
public static class MigrateToPostgresCommand
{
    public const string Usage = """
        usage: NzbDav --migrate-to-postgres [--NzbDav:DataDirectory=DIR] --Database:ConnectionString="Host=…;Database=…;Username=…;Password=…"
          Copies the SQLite library in DIR (default ./data) into an empty PostgreSQL database, then checks
          every table's row count and checksum on both sides. Stop the server first. The SQLite file is
          only read; afterwards start the server with Database:Provider=postgres (docs/scale-out.md).
        """;

    public static async Task<int> RunConsoleAsync(string[] args)
    {
        using var cancel = new CancellationTokenSource();
        Console.CancelKeyPress += (_, e) =>
        {
            e.Cancel = true;
            cancel.Cancel();
        };
        return await RunAsync(args, Console.Out, Console.Error, cancel.Token);
    }

    /// <summary>The command with its output and errors going to the given writers; answers the exit code.</summary>
    public static async Task<int> RunAsync(string[] args, TextWriter output, TextWriter error, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);
        if (args.Any(a => a is "-h" or "--help"))
        {
            await output.WriteLineAsync(Usage);
            return 0;
        }

        try
        {
            var configuration = new ConfigurationBuilder()
                .AddJsonFile("appsettings.json", optional: true, reloadOnChange: false)
                .AddEnvironmentVariables()
                .AddCommandLine(args)
                .Build();
            var dataDirectory = (configuration.GetSection(NzbDavOptions.SectionName).Get<NzbDavOptions>() ?? new NzbDavOptions()).DataDirectory;
            var source = LibraryStore.Sqlite(dataDirectory);
            var target = LibraryStore.Postgres(configuration[DatabaseOptions.SectionName + ":ConnectionString"]);
            await output.WriteLineAsync($"Copying the library from the {source.Description} to the {target.Description}");
            var report = await StoreCopy.SqliteToPostgresAsync(source, target, output.WriteLine, cancellationToken);
            await output.WriteLineAsync($"Done in {report.Elapsed.TotalSeconds:F1} s: {report.Tables.Sum(t => t.Rows):N0} rows in {report.Tables.Count} tables, each count and checksum the same in both stores.");
            await output.WriteLineAsync("Start the server with Database:Provider=postgres and the same Database:ConnectionString; the SQLite file was not changed.");
            return 0;
        }
        catch (Exception problem) when (problem is InvalidOperationException or System.Data.Common.DbException or IOException)
        {
            await error.WriteLineAsync($"The migration stopped: {problem.Message}");
            return 1;
        }
        catch (OperationCanceledException)
        {
            await error.WriteLineAsync("The migration was cancelled: the SQLite library is unchanged; empty the PostgreSQL database before running it again.");
            return 1;
        }
    }
}

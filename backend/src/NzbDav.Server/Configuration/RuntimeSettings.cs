using Microsoft.Extensions.Configuration.Json;
using Microsoft.Extensions.FileProviders;

namespace NzbDav.Server.Configuration;

/// <summary>
/// <c>settings.json</c> in the data directory: the settings a running server picks up without a
/// restart (providers, caps, streaming, queue, blocklist; see docs/configuration.md). It is watched,
/// and a change flows through configuration reload to every <c>IOptionsMonitor</c>. It overrides
/// <c>appsettings.json</c>; environment variables and command-line arguments still override it, so
/// an administrator's explicit setting always wins.
/// </summary>
public static class RuntimeSettings
{
    public const string FileName = "settings.json";

    /// <summary>The settings file of a data directory.</summary>
    public static string PathIn(string dataDirectory) => Path.Combine(Path.GetFullPath(dataDirectory), FileName);

    /// <summary>
    /// Adds the data directory's settings file after the app settings files and before the
    /// environment and command line. Returns its file watcher, which the caller disposes when the
    /// host stops (a configuration is never disposed with its host, so the watcher would outlive it),
    /// and, when the file is polled rather than watched, why (for the caller to log).
    /// </summary>
    public static IDisposable Add(ConfigurationManager configuration, out string? watchProblem)
    {
        ArgumentNullException.ThrowIfNull(configuration);
        var dataDirectory = Path.GetFullPath(configuration[NzbDavOptions.SectionName + ":" + nameof(NzbDavOptions.DataDirectory)] ?? new NzbDavOptions().DataDirectory);
        Directory.CreateDirectory(dataDirectory);
        var files = WatchedOrPolled(dataDirectory, out watchProblem);
        var source = new JsonConfigurationSource { FileProvider = files, Path = FileName, Optional = true, ReloadOnChange = true };
        InsertAfterLastJsonFile(configuration, source);
        return files;
    }

    /// <summary>Inserts <paramref name="source"/> after the last JSON file source (before the environment and command line).</summary>
    internal static void InsertAfterLastJsonFile(ConfigurationManager configuration, IConfigurationSource source)
    {
        var sources = configuration.Sources;
        var afterLastFile = 0;
        for (var i = 0; i < sources.Count; i++)
        {
            if (sources[i] is JsonConfigurationSource)
            {
                afterLastFile = i + 1;
            }
        }

        sources.Insert(afterLastFile, source);
    }

    /// <summary>
    /// A provider that watches the directory through inotify, or, where the kernel refuses another
    /// inotify instance (the per-user limit, 128 by default, is often used up on a NAS that also runs
    /// Plex or Syncthing), one that polls it every few seconds. A server must start either way.
    /// </summary>
    private static PhysicalFileProvider WatchedOrPolled(string dataDirectory, out string? watchProblem)
    {
        var files = new PhysicalFileProvider(dataDirectory);
        try
        {
            // Watch starts the FileSystemWatcher now, so a refusal surfaces here, not inside configuration.
            _ = files.Watch(FileName);
            watchProblem = null;
            return files;
        }
        catch (IOException ex)
        {
            files.Dispose();
            watchProblem = ex.Message;
            return new PhysicalFileProvider(dataDirectory) { UsePollingFileWatcher = true, UseActivePolling = true };
        }
    }
}

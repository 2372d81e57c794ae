namespace NzbDav.Server.Configuration;

/// <summary>The <c>NzbDav</c> configuration section.</summary>
public sealed class NzbDavOptions
{
    public const string SectionName = "NzbDav";

    /// <summary>Holds <c>nzbdav.db</c>; Docker sets <c>/config</c>.</summary>
    public string DataDirectory { get; set; } = "./data";

    /// <summary>SABnzbd API key; generated and stored in the database when not configured.</summary>
    public string? ApiKey { get; set; }

    /// <summary>
    /// The key the server generated when none is configured (at first start, or regenerated in the
    /// web UI), kept in the library (<see cref="StoredSecretsSource"/>); <see cref="ApiKey"/> wins when set.
    /// </summary>
    public string? GeneratedApiKey { get; set; }

    public List<string> Categories { get; set; } = [];

    /// <summary>Where rclone mounts the WebDAV tree on the *arr host; history <c>storage</c> lives below it.</summary>
    public string MountPath { get; set; } = "/mnt/nzbdav";

    public DuplicateNzbPolicy DuplicateNzbPolicy { get; set; } = DuplicateNzbPolicy.NewJob;

    public CompletedEntryKind CompletedEntries { get; set; } = CompletedEntryKind.Symlink;

    /// <summary>Largest NZB accepted by addfile/addurl.</summary>
    public long MaxNzbBytes { get; set; } = 64L * 1024 * 1024;

    /// <summary>Deadline for fetching an addurl NZB.</summary>
    public TimeSpan AddUrlTimeout { get; set; } = TimeSpan.FromSeconds(60);

    public QueueOptions Queue { get; set; } = new();

    /// <summary>The rolling log file under the data directory.</summary>
    public LogFileOptions Logs { get; set; } = new();

    /// <summary><c>/metrics</c> (Prometheus).</summary>
    public MetricsOptions Metrics { get; set; } = new();

    /// <summary>The web UI under <c>/ui/</c>; see docs/ui.md.</summary>
    public WebUiOptions Ui { get; set; } = new();

    /// <summary>Categories in effect (the defaults when none are configured).</summary>
    /// <remarks>
    /// Blank entries are skipped: the settings saved from the UI blank out the entries of a longer
    /// list below them (configuration lists merge by index).
    /// </remarks>
    public IReadOnlyList<string> EffectiveCategories =>
        Categories.Any(static c => !string.IsNullOrWhiteSpace(c))
            ? Categories.Where(static c => !string.IsNullOrWhiteSpace(c)).Select(static c => c.Trim()).ToList()
            : ["tv", "movies", "audio", "software"];

    /// <summary><c>&lt;MountPath&gt;/completed</c>: SABnzbd's <c>complete_dir</c>.</summary>
    public string CompleteDirectory => MountPath.TrimEnd('/') + "/completed";

    /// <summary>History <c>storage</c> of a job.</summary>
    public string StoragePathFor(string category, string jobName) =>
        category == SabCategories.Default
            ? CompleteDirectory + "/" + jobName
            : CompleteDirectory + "/" + category + "/" + jobName;
}

namespace NzbDav.Server.Configuration;

/// <summary>
/// <c>NzbDav:Logs</c>: the rolling log file a user attaches to a bug report. Read once at start-up,
/// before anything else is configured, so a change needs a restart.
/// </summary>
public sealed class LogFileOptions
{
    /// <summary>Write the log file at all (the console log is unaffected).</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>Folder of the log files; empty means <c>&lt;DataDirectory&gt;/logs</c>.</summary>
    public string? Directory { get; set; }

    /// <summary>Files older than this many days are deleted.</summary>
    public int RetainedDays { get; set; } = 14;

    /// <summary>A file that reaches this size is closed and the next one started the same day.</summary>
    public long FileSizeLimitBytes { get; set; } = 20L * 1024 * 1024;

    /// <summary>At most this many files are kept, so the logs never take more than this × the size limit.</summary>
    public int RetainedFileCount { get; set; } = 50;

    /// <summary>The folder the files go to, given the data directory.</summary>
    public string ResolveDirectory(string dataDirectory) =>
        string.IsNullOrWhiteSpace(Directory) ? Path.Combine(dataDirectory, "logs") : Directory;

    /// <summary>What is wrong with the settings, or null.</summary>
    public string? Validate() => this switch
    {
        { RetainedDays: < 1 } => $"NzbDav:Logs:RetainedDays must be at least 1 (it is {RetainedDays}).",
        { FileSizeLimitBytes: < 1024 } => $"NzbDav:Logs:FileSizeLimitBytes must be at least 1024 (it is {FileSizeLimitBytes}).",
        { RetainedFileCount: < 1 } => $"NzbDav:Logs:RetainedFileCount must be at least 1 (it is {RetainedFileCount}).",
        _ => null,
    };
}

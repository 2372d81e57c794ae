using NzbDav.Usenet.Configuration;

namespace NzbDav.Server.Configuration;

/// <summary>What a setting's value is, for checking it and for the form that edits it.</summary>
public enum SettingType
{
    Number,
    Bytes,
    Boolean,
    Text,
    Choice,
    List,
}

/// <summary>
/// A setting the web UI edits. <paramref name="Key"/> is its configuration key; a nullable setting
/// stored as an empty string means "automatic" (<paramref name="Automatic"/> says what that is).
/// </summary>
public sealed record SettingDefinition(
    string Key,
    string Section,
    string Label,
    string Help,
    SettingType Type,
    bool Nullable = false,
    long? Min = null,
    long? Max = null,
    IReadOnlyList<string>? Choices = null,
    string? Automatic = null);

/// <summary>The settings the web UI edits (besides providers and accounts, which have their own calls).</summary>
public static partial class SettingCatalog
{
    public const int MaxConcurrentJobs = 16;

    private const long MiB = 1024 * 1024;

    public static IReadOnlyList<SettingDefinition> All { get; } =
    [
        new("Usenet:Limiter:QueueGuarantee", "Connections", "Queue guarantee",
            "Connections ingestion always gets back first.", SettingType.Number, Nullable: true, Min: 0, Automatic: "a tenth of the budget"),
        new("Usenet:Limiter:QueueMaximum", "Connections", "Queue maximum",
            "Most connections ingestion may hold by borrowing idle capacity.", SettingType.Number, Nullable: true, Min: 0, Automatic: "the whole budget"),
        new("Usenet:Limiter:HealthCheckGuarantee", "Connections", "Health-check guarantee",
            "Connections health checks always get back first.", SettingType.Number, Nullable: true, Min: 0, Automatic: "a twentieth of the budget"),
        new("Usenet:Limiter:HealthCheckMaximum", "Connections", "Health-check maximum",
            "Most connections health checks may hold by borrowing idle capacity.", SettingType.Number, Nullable: true, Min: 0, Automatic: "the whole budget"),
        new("Usenet:BlockAccountAfterMs", "Connections", "Block accounts after (ms)",
            "Block accounts serve articles every other provider answered 430 for; with a value, also a read a player has waited on this long.", SettingType.Number, Nullable: true, Min: 100, Max: 600_000, Automatic: "only what is missing elsewhere"),

        new("Usenet:Bandwidth:MaxBytesPerSecond", "Bandwidth", "Provider bandwidth cap (per second)",
            "Most bytes per second all providers together may send; when it binds, playback goes before ingestion and health checks. A provider's own cap is in its settings.", SettingType.Bytes, Nullable: true, Min: 64 * 1024, Max: 100L * 1024 * MiB, Automatic: "no cap"),
        new("Usenet:Bandwidth:Schedule", "Bandwidth", "Bandwidth schedule",
            "Times of day with a rate of their own, in the server's time zone: 01:00-07:00=unlimited, 18:00-23:00=5 MiB. Outside them the cap above holds.", SettingType.Text, Nullable: true, Automatic: "the cap all day"),

        new("Streaming:ConnectionsPerStream", "Streaming", "Connections per stream",
            "Most connections one playing file fetches on at once.", SettingType.Number, Min: 1, Max: 500),
        new("Streaming:StartReadAheadBytes", "Streaming", "Read-ahead at start",
            "Bytes fetched ahead of a whole-file download from its start while no other stream reads (otherwise the ranged value); a reader that keeps waiting doubles it, a paced one is fitted to its rate.", SettingType.Bytes, Min: 1, Max: StreamingCeiling),
        new("Streaming:RangedStartReadAheadBytes", "Streaming", "Read-ahead at start (ranged)",
            "The same for a ranged read from the start (rclone's mount, a player, a probe), which often stops after a header.", SettingType.Bytes, Min: 1, Max: StreamingCeiling),
        new("Streaming:MemoryBudgetBytes", "Streaming", "Memory budget",
            "Decoded bytes all streams together may hold: read-ahead plus the segment cache.", SettingType.Bytes, Min: 32 * MiB, Max: 64 * 1024 * MiB),
        new("Streaming:SegmentCacheBytes", "Streaming", "Segment cache",
            "Part of the memory budget kept for segments other readers may want (probes, a second reader of a file); 0 keeps none.", SettingType.Bytes, Min: 0, Max: 64 * 1024 * MiB),
        new("Streaming:MaxReadAheadBytes", "Streaming", "Read-ahead limit",
            "Most bytes held ahead of one reader.", SettingType.Bytes, Nullable: true, Min: 1, Max: StreamingCeiling, Automatic: "from the target bandwidth"),
        new("Streaming:TargetBandwidthBytesPerSecond", "Streaming", "Target bandwidth (per second)",
            "The rate read-ahead is sized for.", SettingType.Bytes, Min: 1),
        new("Streaming:ServeUnverifiedBytes", "Streaming", "Serve unverified bytes",
            "Serve an article's bytes before its CRC is checked (faster first byte).", SettingType.Boolean),

        new("Cache:Path", "Disk cache", "Disk cache folder",
            "Where decoded segments are kept on disk, so what a scanner or player read once is not fetched again, across restarts. Empty turns the disk cache off.", SettingType.Text, Nullable: true, Automatic: "off"),
        new("Cache:MaxBytes", "Disk cache", "Disk cache size",
            "Most segment bytes kept on disk; played segments are evicted before files' heads and tails.", SettingType.Bytes, Min: 64 * MiB, Max: 64L * 1024 * 1024 * MiB),

        new("Health:Enabled", "Health", "Scheduled checks",
            "Re-check library files on a schedule that stretches with the release's age.", SettingType.Boolean),
        new("Health:ImportCheck", "Health", "Check at import",
            "Ask providers for a sample of every file before a job is reported Completed, so dead releases fail at once.", SettingType.Boolean),
        new("Health:CheckEverything", "Health", "Check every segment",
            "Every check asks about every segment instead of a sample (more STATs).", SettingType.Boolean),
        new("Health:MaxConsecutiveMissing", "Health", "Tolerated holes in a row",
            "A file whose confirmed holes have no longer run than this stays Degraded and plays; beyond it is Broken.", SettingType.Number, Min: 0, Max: 1000),
        new("Health:ZeroFillHoles", "Health", "Play through holes",
            "Reads of a Degraded file's confirmed holes return zeros instead of failing.", SettingType.Boolean),
        new("Health:Par2Repair", "Health", "Repair with PAR2 first",
            "Degraded and Broken files are rebuilt from the release's PAR2 recovery data when it holds enough, before Sonarr/Radarr is asked for another release.", SettingType.Boolean),
        new("Health:Par2MaxBytesPerRepair", "Health", "PAR2 repair: most bytes per repair",
            "A repair reads the release's surviving data and its recovery slices; one that would fetch more goes to Sonarr/Radarr instead.", SettingType.Bytes, Nullable: true, Min: 0, Max: 100L * 1024 * 1024 * MiB, Automatic: "no cap"),
        new("Health:Par2MaxBytesPerDay", "Health", "PAR2 repair: most bytes per day",
            "What PAR2 repairs may fetch together in a day (UTC); a repair past it waits for the next day.", SettingType.Bytes, Nullable: true, Min: 0, Max: 100L * 1024 * 1024 * MiB, Automatic: "no cap"),
        new("Health:Par2MemoryBytes", "Health", "PAR2 repair: memory",
            "What a PAR2 rebuild may hold in memory; a bigger one stores the slices it reads in the data directory and rebuilds in stripes.", SettingType.Bytes, Min: 64 * 1024, Max: 64L * 1024 * MiB),
        new("Health:Par2VerifyAtImport", "Health", "PAR2: verify at import",
            "After a job completes, a few PAR2 slices are read and checked against their MD5 and CRC-32, finding data posted wrong that every article's CRC passes.", SettingType.Boolean),
        new("Health:Par2VerifySlices", "Health", "PAR2: slices verified per release",
            "Slices read per release when verifying at import, spread over the set.", SettingType.Number, Min: 1, Max: 1000),
        new("Health:Repair", "Health", "Repair through Sonarr/Radarr",
            "Broken files are replaced by the Sonarr/Radarr that grabbed them.", SettingType.Boolean),
        new("Health:DryRun", "Health", "Repair dry run",
            "Repairs only log the calls they would make.", SettingType.Boolean),
        new("Health:MaxRepairsPerHour", "Health", "Repairs per hour",
            "Most repairs started in any hour, library-wide.", SettingType.Number, Min: 1, Max: 1000),

        new("Mount:Enabled", "Mount", "Managed rclone mount",
            "NzbDav mounts its own library with rclone at the mount path and keeps the mount up (needs rclone and FUSE; see Settings → Integrations).", SettingType.Boolean),
        new("NzbDav:MountPath", "Mount", "Mount path",
            "Where the WebDAV tree is mounted: by the managed mount here, or by your own rclone on the Sonarr/Radarr host. Completed symlinks point into it.", SettingType.Text),
        new("Mount:VfsCacheMode", "Mount", "VFS cache mode",
            "rclone's --vfs-cache-mode: full keeps what players read on disk (seeks and re-reads are local), off reads everything from NzbDav.", SettingType.Choice, Choices: ["off", "minimal", "writes", "full"]),
        new("Mount:VfsCacheMaxSize", "Mount", "VFS cache size",
            "rclone's --vfs-cache-max-size, in rclone's units (20G, 512M).", SettingType.Text),
        new("Mount:DirCacheTime", "Mount", "Directory cache time",
            "rclone's --dir-cache-time (30s, 5m, 1h): how long a listing is trusted before NzbDav is asked again; completed jobs also refresh it at once.", SettingType.Text),
        new("Mount:AllowOther", "Mount", "Allow other users",
            "rclone's --allow-other: Plex, Jellyfin or Sonarr running as other users can read the mount.", SettingType.Boolean),

        new("NzbDav:Queue:MaxConcurrentJobs", "Queue", "Jobs at once",
            "Jobs ingested at the same time.", SettingType.Number, Min: 1, Max: MaxConcurrentJobs),
        new("NzbDav:Queue:ArticleConcurrency", "Queue", "Articles in flight per job",
            "Article requests one job keeps in flight.", SettingType.Number, Min: 1, Max: 1024),
        new("NzbDav:Queue:HeadBytesPerJob", "Queue", "First-article bytes per job",
            "Memory one job may keep for archive and PAR2 headers.", SettingType.Bytes, Min: MiB, Max: 1024 * MiB),

        new("NzbDav:Categories", "SABnzbd", "Categories",
            "Categories Sonarr and Radarr may choose from, comma separated.", SettingType.List, Automatic: "tv, movies, audio, software"),
        new("NzbDav:DuplicateNzbPolicy", "SABnzbd", "Duplicate NZBs",
            "What an NZB whose name is already in the queue or history becomes.", SettingType.Choice, Choices: Enum.GetNames<DuplicateNzbPolicy>()),
        new("NzbDav:MaxNzbBytes", "SABnzbd", "Largest NZB",
            "Bytes an uploaded or fetched NZB may have.", SettingType.Bytes, Min: 1024, Max: 1024 * MiB),

        new("NzbDav:CompletedEntries", "WebDAV", "Completed entries",
            "What /completed holds for each file: symlinks into /content, or .strm files with a URL.", SettingType.Choice, Choices: Enum.GetNames<CompletedEntryKind>()),
        new("NzbDav:WebDav:PublicUrl", "WebDAV", "Public URL",
            "Base URL written into .strm files.", SettingType.Text, Nullable: true, Automatic: "the request's own address"),
    ];

    /// <summary>The longest value any setting takes (a URL, a path, a category list); beyond it a paste went wrong.</summary>
    public const int MaxTextLength = 1024;

    private const long StreamingCeiling = NzbDav.Streaming.StreamingOptions.ReadAheadCeilingBytes;

    public static SettingDefinition? Find(string key) =>
        All.FirstOrDefault(d => string.Equals(d.Key, key, StringComparison.OrdinalIgnoreCase));

    /// <summary>
    /// Checks <paramref name="value"/> for <paramref name="definition"/> and returns it in the form
    /// stored (trimmed, lists comma separated); the error names the setting.
    /// </summary>
    public static string Normalize(SettingDefinition definition, string value, out string? error)
    {
        error = null;
        var text = value.Trim();
        if (text.Length > MaxTextLength)
        {
            error = string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{definition.Label} can have at most {MaxTextLength:N0} characters; this has {text.Length:N0}.");
            return text;
        }
        if (text.Length == 0)
        {
            if (definition.Nullable)
                return "";
            if (definition.Type is SettingType.List)
                return "";
            error = $"{definition.Label} cannot be empty.";
            return text;
        }

        switch (definition.Type)
        {
            case SettingType.Bytes:
                if (!ByteSize.TryParse(text, out var size, out var sizeError))
                {
                    error = $"{definition.Label}: {sizeError}";
                    return text;
                }
                if (size < (definition.Min ?? 0) || size > (definition.Max ?? long.MaxValue))
                {
                    error = definition.Max is { } most
                        ? $"{definition.Label} must be between {ByteSize.Format(definition.Min ?? 0)} and {ByteSize.Format(most)}; {ByteSize.Format(size)} is not."
                        : $"{definition.Label} must be at least {ByteSize.Format(definition.Min ?? 0)}; {ByteSize.Format(size)} is not.";
                }
                return size.ToString(System.Globalization.CultureInfo.InvariantCulture);
            case SettingType.Number:
                if (!long.TryParse(text, System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var number))
                {
                    error = $"{definition.Label} must be a whole number; '{text}' is not.";
                }
                else if (number < (definition.Min ?? long.MinValue) || number > (definition.Max ?? int.MaxValue))
                {
                    error = definition.Max is { } max
                        ? $"{definition.Label} must be between {definition.Min} and {max}; {number} is not."
                        : $"{definition.Label} must be at least {definition.Min}; {number} is not.";
                }
                return number.ToString(System.Globalization.CultureInfo.InvariantCulture);
            case SettingType.Boolean:
                if (!bool.TryParse(text, out var flag))
                    error = $"{definition.Label} must be true or false.";
                return flag ? "true" : "false";
            case SettingType.Choice:
                var choice = definition.Choices!.FirstOrDefault(c => string.Equals(c, text, StringComparison.OrdinalIgnoreCase));
                if (choice is null)
                    error = $"{definition.Label} must be one of {string.Join(", ", definition.Choices!)}; '{text}' is not.";
                return choice ?? text;
            case SettingType.List:
                var items = text.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
                foreach (var item in items)
                {
                    if (!SabCategories.IsValidName(item))
                    {
                        error = $"{definition.Label}: '{item}' is not a usable name (letters, digits, '-', '_' and '.' only, at most 64).";
                        break;
                    }
                }
                if (items.Distinct(StringComparer.OrdinalIgnoreCase).Count() != items.Length)
                    error ??= $"{definition.Label}: a name appears twice.";
                return string.Join(", ", items);
            default:
                if (definition.Key is "NzbDav:MountPath" or "Cache:Path" && !text.StartsWith('/'))
                    error = $"{definition.Label} must be an absolute path (starting with '/'); '{text}' is not.";
                if (definition.Key == "Mount:VfsCacheMaxSize" && !RcloneSize().IsMatch(text))
                    error = $"{definition.Label} must be a size in rclone's units, e.g. 20G, 512M or off; '{text}' is not.";
                if (definition.Key == "Mount:DirCacheTime" && !RcloneDuration().IsMatch(text))
                    error = $"{definition.Label} must be a duration in rclone's units, e.g. 30s, 5m or 1h; '{text}' is not.";
                if (definition.Key == "NzbDav:WebDav:PublicUrl"
                    && !(Uri.TryCreate(text, UriKind.Absolute, out var url) && url.Scheme is "http" or "https"))
                {
                    error = $"{definition.Label} must be an http:// or https:// address; '{text}' is not.";
                }
                return text;
        }
    }

    [System.Text.RegularExpressions.GeneratedRegex(@"^(off|\d+(\.\d+)?[bBkKmMgGtTpP]?)$")]
    private static partial System.Text.RegularExpressions.Regex RcloneSize();

    [System.Text.RegularExpressions.GeneratedRegex(@"^(\d+(\.\d+)?(ns|us|ms|s|m|h|d|w|M|y))+$")]
    private static partial System.Text.RegularExpressions.Regex RcloneDuration();
}

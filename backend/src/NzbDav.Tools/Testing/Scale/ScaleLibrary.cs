using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;

namespace NzbDav.Tools.Testing.Scale;

/// <summary>
/// Writes a library of <see cref="ScaleLibrarySpec.Jobs"/> jobs straight into a fresh data directory's
/// store: the real migrations make the schema, then one transaction of prepared raw inserts fills
/// <c>Jobs</c>, <c>JobNzbs</c>, <c>DavItems</c> and <c>FileHealth</c> with what ingestion would have
/// written (a job folder per completed job with its files, their layouts and health rows, failed jobs
/// in the history, a few jobs paused in the queue, where the queue service leaves them). Values are written in EF Core's SQLite forms (GUIDs as
/// upper-case text, dates as <c>yyyy-MM-dd HH:mm:ss.FFFFFFF</c>) so the server reads them as its own.
/// </summary>
internal static class ScaleLibrary
{
    /// <summary>The category whose <c>/content</c> folder is the biggest: the one measured.</summary>
    public const string BigCategory = "tv";

    private const long PartSize = 716_800;
    private const string Group = "alt.binaries.scale";
    private static readonly DateTime Epoch = new(2025, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    /// <summary>The categories a library of <paramref name="spec"/> uses, the big one first (for the server's configuration).</summary>
    public static IReadOnlyList<string> Categories(ScaleLibrarySpec spec)
    {
        ArgumentNullException.ThrowIfNull(spec);
        var completed = Completed(spec);
        var count = Math.Max(1, (completed + spec.FolderSize - 1) / spec.FolderSize);
        return [.. Enumerable.Range(0, count).Select(CategoryName)];
    }

    public static async Task<ScaleLibraryInfo> GenerateAsync(string dataDirectory, ScaleLibrarySpec spec, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(spec);
        var started = Stopwatch.GetTimestamp();
        await MigrateAsync(dataDirectory, cancellationToken);
        var database = Path.Combine(Path.GetFullPath(dataDirectory), DataServiceCollectionExtensions.DatabaseFileName);
        var connectionString = new SqliteConnectionStringBuilder { DataSource = database, Mode = SqliteOpenMode.ReadWrite, Pooling = false }.ToString();
        var info = new ScaleLibraryInfo { Spec = spec };
        await using (var connection = new SqliteConnection(connectionString))
        {
            await connection.OpenAsync(cancellationToken);
            // Only for the bulk load: a crash here just means generating again. The file stays in WAL mode as the server set it.
            await ExecuteAsync(connection, "PRAGMA synchronous=OFF; PRAGMA cache_size=-524288; PRAGMA temp_store=MEMORY;", cancellationToken);
            await using (var transaction = (SqliteTransaction)await connection.BeginTransactionAsync(cancellationToken))
            {
                var writer = new RowWriter(connection, transaction);
                Fill(writer, spec, info, cancellationToken);
                await transaction.CommitAsync(cancellationToken);
            }

            await ExecuteAsync(connection, "PRAGMA wal_checkpoint(TRUNCATE);", cancellationToken);
        }

        info.GenerateTime = Stopwatch.GetElapsedTime(started);
        return info;
    }

    /// <summary>The name (and folder) of the <paramref name="index"/>th generated job; the first <see cref="ScaleLibrarySpec.FolderSize"/> fill the big category.</summary>
    public static string JobName(int index) =>
        $"Scale.Release.{index:D7}.S{1 + (index % 20):D2}E{1 + (index % 24):D2}.1080p.WEB-DL.x264-NZBDAV";

    private static int Completed(ScaleLibrarySpec spec) => spec.Jobs - Failed(spec) - Queued(spec);

    private static int Failed(ScaleLibrarySpec spec) => spec.Jobs / 100;

    private static int Queued(ScaleLibrarySpec spec) => Math.Min(spec.Queued, spec.Jobs - Failed(spec) - 1);

    private static string CategoryName(int index) => index switch
    {
        0 => BigCategory,
        1 => "movies",
        _ => "cat" + (index + 1).ToString("D2", CultureInfo.InvariantCulture),
    };

    private static async Task MigrateAsync(string dataDirectory, CancellationToken cancellationToken)
    {
        var services = new Microsoft.Extensions.DependencyInjection.ServiceCollection().AddNzbDavData(dataDirectory);
        await using var provider = Microsoft.Extensions.DependencyInjection.ServiceCollectionContainerBuilderExtensions.BuildServiceProvider(services);
        var factory = Microsoft.Extensions.DependencyInjection.ServiceProviderServiceExtensions.GetRequiredService<IDbContextFactory<NzbDavDbContext>>(provider);
        await NzbDavDatabase.MigrateAsync(factory, cancellationToken);
        SqliteConnection.ClearAllPools();
    }

    private static void Fill(RowWriter writer, ScaleLibrarySpec spec, ScaleLibraryInfo info, CancellationToken cancellationToken)
    {
        var random = new Random(spec.Seed);
        var completed = Completed(spec);
        var failed = Failed(spec);
        var queued = Queued(spec);
        var token = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(6));
        var now = DateTime.UtcNow;
        for (var i = 0; i < spec.Jobs; i++)
        {
            if ((i & 1023) == 0)
                cancellationToken.ThrowIfCancellationRequested();
            var status = i < completed ? JobStatus.Completed : i < completed + failed ? JobStatus.Failed : JobStatus.Paused;
            // Completed jobs fill the categories one folder at a time; failed and queued ones belong to the big category.
            var category = status == JobStatus.Completed ? CategoryName(i / spec.FolderSize) : BigCategory;
            var name = JobName(i);
            // Spread over the last year, in job order, so the newest history entries are the last jobs.
            var added = Epoch.AddSeconds(i * (365.0 * 86400 / Math.Max(1, spec.Jobs)));
            var done = status == JobStatus.Paused ? (DateTime?)null : added.AddSeconds(30 + random.Next(300));
            var job = Guid.NewGuid();
            var files = status == JobStatus.Completed ? Files(spec, name, token, i, random) : [];
            var total = files.Sum(f => f.Size);
            var folder = "/content/" + category + "/" + name;
            writer.Job(job, "SABnzbd_nzo_" + Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(8)), name, category, status,
                status == JobStatus.Failed ? "Article not found: the release is incomplete on every provider" : null,
                added, done, status == JobStatus.Completed ? total : 1_000_000_000L + random.Next(1_000_000),
                status == JobStatus.Completed ? "/mnt/nzbdav/completed/" + category + "/" + name : null,
                Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(token + name))));
            writer.Nzb(job, NzbDocument(name, files));
            info.Count(status, category);
            if (status != JobStatus.Completed)
                continue;
            info.SampleJobFolder ??= folder + "/";
            var root = Guid.NewGuid();
            writer.Item(job, root, null, name, folder, isDirectory: true, 0, done!.Value, null);
            info.Directories++;
            foreach (var file in files)
            {
                var id = Guid.NewGuid();
                writer.Item(job, id, root, file.Name, folder + "/" + file.Name, isDirectory: false, file.Size, done.Value, file.Layout);
                writer.Health(id, job, added.AddDays(-1), done!.Value, now.AddSeconds(60 + random.Next(30 * 86400)), file.Segments);
                info.Files++;
                info.LayoutBytes += file.Layout.Length;
            }
        }
    }

    private sealed record GeneratedFile(string Name, long Size, int Segments, byte[] Layout);

    /// <summary>A video (the big file, <see cref="ScaleLibrarySpec.VideoSegments"/> articles) and small companions of one article each.</summary>
    private static List<GeneratedFile> Files(ScaleLibrarySpec spec, string name, string token, int job, Random random)
    {
        var files = new List<GeneratedFile>(spec.FilesPerJob);
        for (var k = 0; k < spec.FilesPerJob; k++)
        {
            var video = k == 0;
            var fileName = video ? name + ".mkv" : k == 1 ? name + ".nfo" : $"{name}.{k:D2}.srt";
            var segments = video ? spec.VideoSegments : 1;
            var size = video ? 1_000_000_000L + random.NextInt64(3_000_000_000L) : 1_000L + random.Next(100_000);
            var partSize = Math.Max(PartSize, (size + segments - 1) / segments);
            var ids = new string[(int)((size + partSize - 1) / partSize)];
            for (var s = 0; s < ids.Length; s++)
                ids[s] = $"{token}.{job}.{k}.{s + 1}@scale.nzbdav";
            var layout = DavFileLayoutCodec.Encode(new DavFileLayout([LayoutPart.WholeFile(ids, size, partSize)]));
            files.Add(new GeneratedFile(fileName, size, ids.Length, layout));
        }

        return files;
    }

    /// <summary>A small NZB naming the job's files (their first article only): the stored NZB is not what is measured, but it has its row.</summary>
    private static byte[] NzbDocument(string name, List<GeneratedFile> files)
    {
        var xml = new StringBuilder(256 + files.Count * 200);
        xml.Append("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<nzb xmlns=\"http://www.newzbin.com/DTD/2003/nzb\">\n");
        xml.Append("<head><meta type=\"name\">").Append(name).Append("</meta></head>\n");
        foreach (var file in files)
        {
            xml.Append("<file poster=\"scale@nzbdav\" date=\"1735689600\" subject=\"&quot;").Append(file.Name).Append("&quot; yEnc (1/").Append(file.Segments).Append(")\">")
                .Append("<groups><group>").Append(Group).Append("</group></groups><segments><segment bytes=\"")
                .Append(PartSize.ToString(CultureInfo.InvariantCulture)).Append("\" number=\"1\">first@scale.nzbdav</segment></segments></file>\n");
        }

        xml.Append("</nzb>\n");
        return Encoding.UTF8.GetBytes(xml.ToString());
    }

    private static async Task ExecuteAsync(SqliteConnection connection, string sql, CancellationToken cancellationToken)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    /// <summary>Prepared inserts, one per table, reused for every row of the load.</summary>
    private sealed class RowWriter
    {
        private readonly SqliteCommand _job;
        private readonly SqliteCommand _nzb;
        private readonly SqliteCommand _item;
        private readonly SqliteCommand _health;

        public RowWriter(SqliteConnection connection, SqliteTransaction transaction)
        {
            _job = Prepare(connection, transaction, """
                INSERT INTO Jobs (Id, NzoId, Name, Category, Priority, Status, FailMessage, AddedAt, CompletedAt, TotalBytes, StoragePath, Password, NzbHash, RemovedFromHistory)
                VALUES ($id, $nzo, $name, $category, 0, $status, $fail, $added, $completed, $bytes, $storage, NULL, $hash, 0)
                """);
            _nzb = Prepare(connection, transaction, "INSERT INTO JobNzbs (JobId, GzipData, Length) VALUES ($job, $data, $length)");
            _item = Prepare(connection, transaction, """
                INSERT INTO DavItems (Id, JobId, ParentId, Name, Path, IsDirectory, Size, Modified, Layout)
                VALUES ($id, $job, $parent, $name, $path, $directory, $size, $modified, $layout)
                """);
            _health = Prepare(connection, transaction, """
                INSERT INTO FileHealth (DavItemId, JobId, State, Repair, ReleasedAt, LastCheckedAt, NextCheckAt, Urgent, FullCheckNext,
                                        SegmentCount, CheckedSegments, UnknownSegments, MissingIds, MissingCount, SuspectIds, SuspectSince,
                                        Detail, LastRepairAt, RepairAttempts, RepairMessage)
                VALUES ($item, $job, $state, 0, $released, $checked, $next, 0, 0, $segments, $segments, 0, NULL, 0, NULL, NULL, NULL, NULL, 0, NULL)
                """);
        }

        public void Job(Guid id, string nzoId, string name, string category, JobStatus status, string? fail, DateTime added, DateTime? completed, long bytes, string? storage, string hash) =>
            Run(_job, Text(id), nzoId, name, category, (int)status, fail, Text(added), completed is { } c ? Text(c) : null, bytes, storage, hash);

        public void Nzb(Guid job, byte[] nzb) => Run(_nzb, Text(job), NzbCompression.Compress(nzb), (long)nzb.Length);

        public void Item(Guid job, Guid id, Guid? parent, string name, string path, bool isDirectory, long size, DateTime modified, byte[]? layout) =>
            Run(_item, Text(id), Text(job), parent is { } p ? Text(p) : null, name, path, isDirectory ? 1 : 0, size, Text(modified), layout);

        public void Health(Guid item, Guid job, DateTime released, DateTime checkedAt, DateTime next, int segments) =>
            Run(_health, Text(item), Text(job), (int)FileHealthState.Healthy, Text(released), Text(checkedAt), Text(next), segments);

        private static SqliteCommand Prepare(SqliteConnection connection, SqliteTransaction transaction, string sql)
        {
            var command = connection.CreateCommand();
            command.Transaction = transaction;
            command.CommandText = sql;
            foreach (var name in sql.Split(['(', ')', ',', ' ', '\n', '\r'], StringSplitOptions.RemoveEmptyEntries).Where(t => t.StartsWith('$')).Distinct(StringComparer.Ordinal))
                command.Parameters.Add(new SqliteParameter(name, null));
            command.Prepare();
            return command;
        }

        private static void Run(SqliteCommand command, params object?[] values)
        {
            for (var i = 0; i < values.Length; i++)
                command.Parameters[i].Value = values[i] ?? DBNull.Value;
            command.ExecuteNonQuery();
        }

        // EF Core's SQLite forms: GUIDs as upper-case text, DateTime as ISO text with a space and up to 7 fraction digits.
        private static string Text(Guid value) => value.ToString("D").ToUpperInvariant();

        private static string Text(DateTime value) => value.ToString("yyyy-MM-dd HH:mm:ss.FFFFFFF", CultureInfo.InvariantCulture);
    }
}

/// <summary>What library <see cref="ScaleLibrary"/> generates.</summary>
/// <param name="Jobs">All jobs: completed, 1 % failed, and <paramref name="Queued"/> still in the queue.</param>
/// <param name="FilesPerJob">Files of a completed job (one video and its companions).</param>
/// <param name="FolderSize">Completed jobs per category folder: the biggest folder's children.</param>
/// <param name="VideoSegments">Articles of each video file (its layout's message-ids).</param>
internal sealed record ScaleLibrarySpec(int Jobs, int FilesPerJob, int FolderSize, int Queued, int VideoSegments, int Seed = 16);

/// <summary>What was generated: counts per status and category, and how long it took.</summary>
internal sealed class ScaleLibraryInfo
{
    public required ScaleLibrarySpec Spec { get; init; }

    public int Completed { get; private set; }

    public int Failed { get; private set; }

    public int Queued { get; private set; }

    public long Directories { get; set; }

    public long Files { get; set; }

    public long LayoutBytes { get; set; }

    /// <summary>Completed jobs per category (the folders under <c>/content</c>).</summary>
    public Dictionary<string, int> FolderJobs { get; } = new(StringComparer.Ordinal);

    /// <summary>History entries (completed and failed) per category.</summary>
    public Dictionary<string, int> HistoryJobs { get; } = new(StringComparer.Ordinal);

    public TimeSpan GenerateTime { get; set; }

    /// <summary>The <c>/content</c> path of one completed job of the big folder (with the trailing slash).</summary>
    public string? SampleJobFolder { get; set; }

    public int History => Completed + Failed;

    public int BigFolderJobs => FolderJobs.GetValueOrDefault(ScaleLibrary.BigCategory);

    /// <summary>Sets the counts of a library generated earlier (see <see cref="ScaleLibraryCache"/>).</summary>
    public void Restore(int completed, int failed, int queued, IReadOnlyDictionary<string, int> folderJobs, IReadOnlyDictionary<string, int> historyJobs)
    {
        Completed = completed;
        Failed = failed;
        Queued = queued;
        foreach (var (category, count) in folderJobs)
            FolderJobs[category] = count;
        foreach (var (category, count) in historyJobs)
            HistoryJobs[category] = count;
    }

    public void Count(JobStatus status, string category)
    {
        switch (status)
        {
            case JobStatus.Completed:
                Completed++;
                FolderJobs[category] = FolderJobs.GetValueOrDefault(category) + 1;
                HistoryJobs[category] = HistoryJobs.GetValueOrDefault(category) + 1;
                break;
            case JobStatus.Failed:
                Failed++;
                HistoryJobs[category] = HistoryJobs.GetValueOrDefault(category) + 1;
                break;
            default:
                Queued++;
                break;
        }
    }
}

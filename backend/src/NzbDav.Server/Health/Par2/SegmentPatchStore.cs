using System.Collections.Concurrent;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Configuration;
using NzbDav.Streaming;

namespace NzbDav.Server.Health.Par2;

/// <summary>A rebuilt segment to store: its message-id, its decoded length, and what copies its bytes into a buffer of that length.</summary>
public sealed record RebuiltSegment(string MessageId, int Length, Action<Span<byte>> Fill)
{
    public static RebuiltSegment Of(string messageId, ReadOnlyMemory<byte> bytes) => new(messageId, bytes.Length, span => bytes.Span.CopyTo(span));
}

/// <summary>
/// The patches PAR2 repairs leave. The library keeps each rebuilt segment's bytes with its row, so
/// every node can serve it; each node serves reads from its own copy, one file per repair under
/// &lt;DataDirectory&gt;/patches/&lt;job&gt;/, written whole and synced before it is renamed into place
/// (the repairing node's before its rows are committed), so a patch that is served was written
/// completely; every read checks the segment's CRC-32. The index is kept in memory too (a stream's
/// holes are asked for on every open); another node's repair reaches it by notification, when this
/// node writes its copy of the new patch from the library.
/// </summary>
public sealed class SegmentPatchStore(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    IOptionsMonitor<NzbDavOptions> nzbdav,
    TimeProvider time,
    ILogger<SegmentPatchStore> logger,
    Cluster.ClusterOutbox? outbox = null) : ISegmentPatches, IDisposable
{
    /// <summary>Rows written to the library per round trip while a repair stores its segments (bounds what is held at once).</summary>
    private const int RowsPerSave = 16;

    private readonly SemaphoreSlim _refreshing = new(1, 1);
    private readonly ConcurrentDictionary<Guid, JobPatches> _jobs = new();
    private readonly ConcurrentDictionary<string, byte> _warned = new(StringComparer.Ordinal);
    private readonly TaskCompletionSource _loaded = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _corrupt;

    /// <summary>Completes once the start-up load has run: a repair's files are never swept as leftovers.</summary>
    public Task Loaded => _loaded.Task;

    /// <summary>Patches that failed their check when read (served as zeros instead).</summary>
    public long CorruptReads => Interlocked.Read(ref _corrupt);

    private string Root => Path.Combine(Path.GetFullPath(nzbdav.CurrentValue.DataDirectory), "patches");

    /// <summary>Loads the index, and deletes patch files no row refers to (a repair cut short, a job deleted).</summary>
    public async Task LoadAsync(CancellationToken cancellationToken)
    {
        try
        {
            await LoadIndexAsync(cancellationToken);
        }
        finally
        {
            _loaded.TrySetResult();
        }
    }

    private async Task LoadIndexAsync(CancellationToken cancellationToken)
    {
        var rows = await ReadIndexAsync(cancellationToken);
        await ShareLocalAsync(cancellationToken);
        await MaterializeAsync(rows, cancellationToken);
        foreach (var job in rows.GroupBy(r => r.JobId))
        {
            _jobs[job.Key] = new JobPatches(job.ToDictionary(r => r.MessageId, StringComparer.Ordinal));
        }

        if (!Directory.Exists(Root))
        {
            return;
        }

        var referenced = rows.Select(r => Path.Combine(Root, r.JobId.ToString("N"), r.File)).ToHashSet(StringComparer.Ordinal);
        foreach (var directory in Directory.EnumerateDirectories(Root))
        {
            foreach (var file in Directory.EnumerateFiles(directory))
            {
                if (!referenced.Contains(file))
                {
                    TryDelete(file);
                }
            }

            if (!Directory.EnumerateFileSystemEntries(directory).Any())
            {
                TryDeleteDirectory(directory);
            }
        }

        if (rows.Count > 0)
        {
            logger.LogInformation("{Segments} segment(s) of {Jobs} job(s) are served from PAR2 repair patches", rows.Count, _jobs.Count);
        }
    }

    private static SegmentPatch Copy(SegmentPatch row) => new()
    {
        JobId = row.JobId, MessageId = row.MessageId, File = row.File, Offset = row.Offset, Length = row.Length, Crc32 = row.Crc32, CreatedAt = row.CreatedAt,
    };

    public void Dispose() => _refreshing.Dispose();

    /// <summary>Every patch row without its bytes.</summary>
    private async Task<List<SegmentPatch>> ReadIndexAsync(CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        return await context.SegmentPatches.AsNoTracking()
            .Select(p => new SegmentPatch { JobId = p.JobId, MessageId = p.MessageId, File = p.File, Offset = p.Offset, Length = p.Length, Crc32 = p.Crc32, CreatedAt = p.CreatedAt, Data = null })
            .ToListAsync(cancellationToken);
    }

    /// <summary>
    /// Writes this node's copy of every patch file of <paramref name="rows"/> it lacks (another node
    /// ran the repair, or this data directory is new), from the bytes the library keeps.
    /// </summary>
    private async Task MaterializeAsync(IReadOnlyList<SegmentPatch> rows, CancellationToken cancellationToken)
    {
        foreach (var patch in rows.GroupBy(r => (r.JobId, r.File)))
        {
            var path = Path.Combine(Root, patch.Key.JobId.ToString("N"), patch.Key.File);
            var end = patch.Max(r => r.Offset + r.Length);
            if (File.Exists(path) && new FileInfo(path).Length >= end)
                continue;
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            var temporary = path + ".partial";
            var written = 0;
            await using (var file = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 16, FileOptions.Asynchronous))
            {
                await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
                // One segment's bytes at a time, in file order.
                foreach (var row in patch.OrderBy(r => r.Offset))
                {
                    var data = await context.SegmentPatches.AsNoTracking()
                        .Where(p => p.JobId == row.JobId && p.MessageId == row.MessageId).Select(p => p.Data).SingleOrDefaultAsync(cancellationToken);
                    if (data is null || data.Length != row.Length)
                        break;
                    file.Position = row.Offset;
                    await file.WriteAsync(data, cancellationToken);
                    written++;
                }

                await file.FlushAsync(cancellationToken);
                file.Flush(flushToDisk: true);
            }

            if (written < patch.Count())
            {
                // Stored before the library kept patch bytes: only the node that repaired it has them.
                File.Delete(temporary);
                logger.LogWarning("The PAR2 patch {File} of job {JobId} is not in the library (stored by an older version on another node); its segments stay holes on this node",
                    patch.Key.File, patch.Key.JobId);
                continue;
            }

            File.Move(temporary, path, overwrite: true);
            logger.LogInformation("Wrote this node's copy of PAR2 patch {File} of job {JobId} ({Segments} segment(s)) from the library", patch.Key.File, patch.Key.JobId, written);
        }
    }

    /// <summary>
    /// On PostgreSQL, puts into the library the bytes of patches only this node's files hold (stored
    /// by SQLite before the library moved, or by an older version), once each, checked by their CRC-32.
    /// </summary>
    private async Task ShareLocalAsync(CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        if (context.Database.IsSqlite())
            return;
        var local = await context.SegmentPatches.AsNoTracking().Where(p => p.Data == null)
            .Select(p => new SegmentPatch { JobId = p.JobId, MessageId = p.MessageId, File = p.File, Offset = p.Offset, Length = p.Length, Crc32 = p.Crc32, CreatedAt = p.CreatedAt, Data = null })
            .ToListAsync(cancellationToken);
        var shared = 0;
        foreach (var row in local)
        {
            var path = Path.Combine(Root, row.JobId.ToString("N"), row.File);
            if (!File.Exists(path))
                continue;
            var data = new byte[row.Length];
            using (var handle = File.OpenHandle(path))
            {
                if (RandomAccess.Read(handle, data, row.Offset) != data.Length || System.IO.Hashing.Crc32.HashToUInt32(data) != (uint)row.Crc32)
                    continue;
            }

            shared += await context.SegmentPatches.Where(p => p.JobId == row.JobId && p.MessageId == row.MessageId && p.Data == null)
                .ExecuteUpdateAsync(s => s.SetProperty(p => p.Data, data), cancellationToken);
        }

        if (shared > 0)
            logger.LogInformation("Put the bytes of {Segments} PAR2 patch segment(s) from this node's files into the library, for the other nodes", shared);
    }

    /// <summary>
    /// Reads the index again in the background (another node stored or dropped patches): new patches
    /// are written here from the library and served from then on; patches of jobs gone are forgotten.
    /// </summary>
    public void Refresh() => _ = RefreshAsync(CancellationToken.None);

    /// <summary>As <see cref="Refresh"/>, awaited; one at a time.</summary>
    public async Task RefreshAsync(CancellationToken cancellationToken)
    {
        await _refreshing.WaitAsync(cancellationToken);
        try
        {
            var rows = await ReadIndexAsync(cancellationToken);
            await MaterializeAsync(rows, cancellationToken);
            var byJob = rows.GroupBy(r => r.JobId).ToDictionary(g => g.Key, g => g.ToDictionary(r => r.MessageId, StringComparer.Ordinal));
            foreach (var (jobId, patches) in byJob)
                _jobs[jobId] = new JobPatches(patches);
            var gone = _jobs.Keys.Where(id => !byJob.ContainsKey(id)).ToList();
            if (gone.Count > 0)
                ForgetLocally(gone);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            logger.LogWarning("The PAR2 patch index could not be read again ({Reason}); new patches from other nodes are served after the next change or restart", ex.Message);
        }
        finally
        {
            _refreshing.Release();
        }
    }

    /// <summary>The patched message-ids of <paramref name="jobId"/>, or null when it has none.</summary>
    public IReadOnlySet<string>? ForJob(Guid jobId) => _jobs.TryGetValue(jobId, out var patches) ? patches.Ids : null;

    /// <summary>Every patch of <paramref name="jobId"/> (for the health page).</summary>
    public IReadOnlyCollection<SegmentPatch> ListJob(Guid jobId) =>
        _jobs.TryGetValue(jobId, out var patches) ? patches.Rows.Values : [];

    /// <summary>Stores the segments a repair rebuilt for <paramref name="jobId"/>: durable before this returns, served from then on (on every node).</summary>
    public async Task SaveAsync(Guid jobId, IReadOnlyList<RebuiltSegment> segments, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(segments);
        if (segments.Count == 0)
        {
            return;
        }

        var directory = Path.Combine(Root, jobId.ToString("N"));
        Directory.CreateDirectory(directory);
        var name = time.GetUtcNow().ToString("yyyyMMddHHmmssfff", System.Globalization.CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N")[..8] + ".patch";
        var path = Path.Combine(directory, name);
        var temporary = path + ".partial";
        var now = time.GetUtcNow().UtcDateTime;
        var rows = new List<SegmentPatch>(segments.Count);
        // One segment's bytes at a time: a repair's holes may be more than it should hold at once.
        var buffer = new byte[segments.Max(static s => s.Length)];
        await using (var file = new FileStream(temporary, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 16, FileOptions.Asynchronous))
        {
            foreach (var segment in segments)
            {
                var bytes = buffer.AsMemory(0, segment.Length);
                segment.Fill(bytes.Span);
                rows.Add(new SegmentPatch
                {
                    JobId = jobId,
                    MessageId = segment.MessageId,
                    File = name,
                    Offset = file.Position,
                    Length = segment.Length,
                    Crc32 = System.IO.Hashing.Crc32.HashToUInt32(bytes.Span),
                    CreatedAt = now,
                });
                await file.WriteAsync(bytes, cancellationToken);
            }

            await file.FlushAsync(cancellationToken);
            file.Flush(flushToDisk: true);
        }

        File.Move(temporary, path);
        await using (var context = await contextFactory.CreateDbContextAsync(cancellationToken))
        {
            await using var transaction = await context.Database.BeginTransactionAsync(cancellationToken);
            var ids = rows.Select(r => r.MessageId).ToList();
            // A segment rebuilt again (a later repair of the same job) replaces its older patch.
            await context.SegmentPatches.Where(p => p.JobId == jobId && ids.Contains(p.MessageId)).ExecuteDeleteAsync(cancellationToken);
            // On PostgreSQL the other nodes take the bytes from the library (a few rows per round trip,
            // read back from the file just written); SQLite's one node has them in its file.
            var shared = !context.Database.IsSqlite();
            using var handle = shared ? File.OpenHandle(path) : null;
            foreach (var chunk in rows.Chunk(RowsPerSave))
            {
                foreach (var row in chunk)
                {
                    var stored = Copy(row);
                    if (handle is not null)
                    {
                        stored.Data = new byte[row.Length];
                        RandomAccess.Read(handle, stored.Data, row.Offset);
                    }

                    context.SegmentPatches.Add(stored);
                }

                await context.SaveChangesAsync(cancellationToken);
                context.ChangeTracker.Clear();
            }

            await transaction.CommitAsync(cancellationToken);
        }

        _jobs.AddOrUpdate(
            jobId,
            _ => new JobPatches(rows.ToDictionary(r => r.MessageId, StringComparer.Ordinal)),
            (_, old) =>
            {
                var merged = new Dictionary<string, SegmentPatch>(old.Rows, StringComparer.Ordinal);
                foreach (var row in rows)
                {
                    merged[row.MessageId] = row;
                }

                return new JobPatches(merged);
            });
        outbox?.Publish(Cluster.ClusterNotifications.PatchesTopic);
        logger.LogInformation("Stored {Segments} rebuilt segment(s) of job {JobId} in {Patch}", rows.Count, jobId, path);
    }

    /// <summary>Deletes the patches of jobs that were deleted (their rows went with them), here and on the other nodes.</summary>
    public void ForgetJobs(IEnumerable<Guid> jobIds)
    {
        ArgumentNullException.ThrowIfNull(jobIds);
        var forgotten = jobIds.ToList();
        ForgetLocally(forgotten);
        if (forgotten.Count > 0)
            outbox?.Publish(Cluster.ClusterNotifications.PatchesTopic);
    }

    private void ForgetLocally(IEnumerable<Guid> jobIds)
    {
        foreach (var jobId in jobIds)
        {
            _jobs.TryRemove(jobId, out _);
            var directory = Path.Combine(Root, jobId.ToString("N"));
            if (Directory.Exists(directory))
            {
                TryDeleteDirectory(directory, recursive: true);
            }
        }
    }

    /// <inheritdoc />
    public bool TryRead(string messageId, Span<byte> destination)
    {
        foreach (var (jobId, patches) in _jobs)
        {
            if (!patches.Rows.TryGetValue(messageId, out var row))
            {
                continue;
            }

            if (row.Length != destination.Length)
            {
                Corrupt(row, $"{row.Length} bytes stored, the segment is {destination.Length}");
                return false;
            }

            try
            {
                using var handle = File.OpenHandle(Path.Combine(Root, jobId.ToString("N"), row.File), FileMode.Open, FileAccess.Read, FileShare.Read | FileShare.Delete);
                if (RandomAccess.Read(handle, destination, row.Offset) != destination.Length)
                {
                    Corrupt(row, "the patch file is shorter than its index says");
                    return false;
                }
            }
            catch (Exception error) when (error is IOException or UnauthorizedAccessException)
            {
                Corrupt(row, error.Message);
                return false;
            }

            if (System.IO.Hashing.Crc32.HashToUInt32(destination) != (uint)row.Crc32)
            {
                Corrupt(row, "its bytes do not match their CRC-32");
                destination.Clear();
                return false;
            }

            return true;
        }

        return false;
    }

    private void Corrupt(SegmentPatch row, string why)
    {
        Interlocked.Increment(ref _corrupt);
        if (_warned.TryAdd(row.MessageId, 0))
        {
            logger.LogWarning("The PAR2 patch of <{MessageId}> (job {JobId}, {File}) cannot be served, zeros instead: {Reason}", row.MessageId, row.JobId, row.File, why);
        }
    }

    private void TryDelete(string file)
    {
        try
        {
            File.Delete(file);
        }
        catch (Exception error) when (error is IOException or UnauthorizedAccessException)
        {
            logger.LogWarning("Could not delete the unreferenced patch file {File}: {Reason}", file, error.Message);
        }
    }

    private void TryDeleteDirectory(string directory, bool recursive = false)
    {
        try
        {
            Directory.Delete(directory, recursive);
        }
        catch (Exception error) when (error is IOException or UnauthorizedAccessException)
        {
            logger.LogWarning("Could not delete the patch directory {Directory}: {Reason}", directory, error.Message);
        }
    }

    private sealed class JobPatches(Dictionary<string, SegmentPatch> rows)
    {
        public Dictionary<string, SegmentPatch> Rows { get; } = rows;

        public IReadOnlySet<string> Ids { get; } = rows.Keys.ToHashSet(StringComparer.Ordinal);
    }
}

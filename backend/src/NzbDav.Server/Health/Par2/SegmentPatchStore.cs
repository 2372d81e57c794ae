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
/// The patches PAR2 repairs leave: one file per repair under &lt;DataDirectory&gt;/patches/&lt;job&gt;/,
/// written whole and synced before it is renamed into place and its rows are stored, so a patch
/// that is served was written completely; every read checks the segment's CRC-32. The index of
/// every patch is in the database (kept in memory too: a stream's holes are asked for on every open).
/// </summary>
public sealed class SegmentPatchStore(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    IOptionsMonitor<NzbDavOptions> nzbdav,
    TimeProvider time,
    ILogger<SegmentPatchStore> logger) : ISegmentPatches
{
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
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var rows = await context.SegmentPatches.AsNoTracking().ToListAsync(cancellationToken);
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

    /// <summary>The patched message-ids of <paramref name="jobId"/>, or null when it has none.</summary>
    public IReadOnlySet<string>? ForJob(Guid jobId) => _jobs.TryGetValue(jobId, out var patches) ? patches.Ids : null;

    /// <summary>Every patch of <paramref name="jobId"/> (for the health page).</summary>
    public IReadOnlyCollection<SegmentPatch> ListJob(Guid jobId) =>
        _jobs.TryGetValue(jobId, out var patches) ? patches.Rows.Values : [];

    /// <summary>Stores the segments a repair rebuilt for <paramref name="jobId"/>: durable before this returns, served from then on.</summary>
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
            var ids = rows.Select(r => r.MessageId).ToList();
            // A segment rebuilt again (a later repair of the same job) replaces its older patch.
            await context.SegmentPatches.Where(p => p.JobId == jobId && ids.Contains(p.MessageId)).ExecuteDeleteAsync(cancellationToken);
            context.SegmentPatches.AddRange(rows);
            await context.SaveChangesAsync(cancellationToken);
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
        logger.LogInformation("Stored {Segments} rebuilt segment(s) of job {JobId} in {Patch}", rows.Count, jobId, path);
    }

    /// <summary>Deletes the patches of jobs that were deleted (their rows went with them).</summary>
    public void ForgetJobs(IEnumerable<Guid> jobIds)
    {
        ArgumentNullException.ThrowIfNull(jobIds);
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

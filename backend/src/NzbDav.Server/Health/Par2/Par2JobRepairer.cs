using System.Collections.Concurrent;
using System.Globalization;
using System.Text.RegularExpressions;
using Microsoft.EntityFrameworkCore;
using NzbDav.Archives.Par2;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;
using NzbDav.Streaming;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Traffic;

namespace NzbDav.Server.Health.Par2;

/// <summary>What a PAR2 repair of a job would cost, or why it cannot be done.</summary>
/// <param name="MissingSlices">Input slices the confirmed holes touch.</param>
/// <param name="RecoveryAvailable">Recovery slices the release's volumes hold (by their names).</param>
/// <param name="BytesToFetch">Surviving slices of the set plus the recovery slices to read (decoded bytes).</param>
/// <param name="EstimatedSeconds">How long reading them takes at the rate the last repair ran at; null before any repair ran.</param>
public sealed record Par2RepairPlan(bool Possible, string Summary, int MissingSlices, int RecoveryAvailable, long BytesToFetch, double? EstimatedSeconds = null);

/// <summary>How a PAR2 repair of a job ended.</summary>
/// <param name="ProviderBytes">What the providers sent for it, as counted on the wire (yEnc articles and responses).</param>
/// <param name="DecodedBytes">The same, decoded: the articles' bytes.</param>
/// <param name="SliceBytes">Surviving slices and recovery slices the rebuild used: what a repair must read at least.</param>
public sealed record Par2JobRepairResult(bool Repaired, string Message, int SegmentsRebuilt, long ProviderBytes, long DecodedBytes = 0, long SliceBytes = 0);

/// <summary>
/// Repairs a job's confirmed holes from the PAR2 recovery data its NZB carries: reads the recovery
/// set's description, maps every confirmed hole of the job's files to the input slices it touches,
/// reads the surviving slices and as many recovery slices (on the health-check pool, behind
/// playback), rebuilds the lost ones, checks them against their MD5 and CRC-32 and stores the holes'
/// bytes as patches that playback then serves in place of zeros.
/// </summary>
public sealed partial class Par2JobRepairer(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    INzbParser parser,
    NzbFileStreamFactory streams,
    SegmentPatchStore patches,
    FileHoles holes,
    HealthAudit audit,
    UsenetClient client,
    Par2Repairs repairs,
    Microsoft.Extensions.Options.IOptionsMonitor<HealthOptions> options,
    Microsoft.Extensions.Options.IOptionsMonitor<NzbDav.Server.Configuration.NzbDavOptions> nzbdav,
    TimeProvider time,
    ILogger<Par2JobRepairer> logger)
{
    /// <summary>The traffic account every repair's fetches are counted in.</summary>
    public const string Consumer = "par2 repair";

    /// <summary>The traffic account of the verification at import.</summary>
    public const string VerifyConsumer = "par2 verify";

    // Spare recovery slices read beyond the missing ones: a singular choice is replaced without a second pass.
    private const int Margin = 1;

    /// <summary>What repairing <paramref name="jobId"/> would fetch (reads only the small PAR2 index).</summary>
    public async Task<Par2RepairPlan> PlanAsync(Guid jobId, CancellationToken cancellationToken)
    {
        var job = await LoadAsync(jobId, cancellationToken);
        if (job.Failure is not null)
            return new Par2RepairPlan(false, job.Failure, 0, 0, 0);
        var plan = await MakePlanAsync(job, cancellationToken);
        return plan.Plan;
    }

    /// <summary>Repairs <paramref name="jobId"/>'s confirmed holes; the files become Healthy when every hole was rebuilt.</summary>
    public Task<Par2JobRepairResult> RepairAsync(Guid jobId, CancellationToken cancellationToken) => RepairAsync(jobId, null, cancellationToken);

    /// <param name="ticket">Told the plan's bytes and each slice read, for the repair's progress.</param>
    public async Task<Par2JobRepairResult> RepairAsync(Guid jobId, Par2RepairTicket? ticket, CancellationToken cancellationToken)
    {
        var job = await LoadAsync(jobId, cancellationToken);
        if (job.Failure is not null)
            return new Par2JobRepairResult(false, job.Failure, 0, 0);
        var planned = await MakePlanAsync(job, cancellationToken);
        var path = job.Items.Count > 0 ? job.Items[0].Item.Path : job.Name;
        var itemId = job.Items.Count > 0 ? job.Items[0].Item.Id : (Guid?)null;
        await audit.WriteAsync(HealthAudit.Entry(itemId, jobId, path, "par2-plan", planned.Plan.Summary), cancellationToken);
        if (!planned.Plan.Possible || planned.Set is null)
            return new Par2JobRepairResult(false, planned.Plan.Summary, 0, 0);
        ticket?.Plan(planned.Plan.BytesToFetch);

        var account = client.Traffic.For(Consumer);
        var before = Received(account);
        var missing = planned.MissingSlices.ToHashSet();
        Par2RepairOutcome outcome;
        for (var attempt = 1; ; attempt++)
        {
            var skipped = Unneeded(job, planned, missing);
            var request = new Par2RepairRequest(planned.Set, missing, (file, ct) => OpenFileAsync(job, planned.Files[file], skipped, account, planned.Opened, ct), planned.Volumes, Margin, ticket is null ? null : ticket.Read,
                options.CurrentValue.Par2MemoryBytes, ScratchDirectory(nzbdav.CurrentValue));
            outcome = await Par2Repair.RunAsync(request, cancellationToken);
            if (outcome.Succeeded || outcome.Damaged.Count == 0 || attempt == 2)
                break;
            // Slices damaged beyond the confirmed holes (articles that changed, or went since): rebuilt too.
            missing.UnionWith(outcome.Damaged);
        }

        var fetched = Received(account) - before;
        var decoded = planned.Opened.Sum(s => s.Statistics.BytesFetched);
        var sliceBytes = outcome.InputBytesRead + ((long)outcome.RecoverySlicesUsed * planned.Set.SliceSize);
        if (!outcome.Succeeded)
        {
            var why = $"PAR2 repair failed: {outcome.Failure}. Fetched {Size(fetched)}; nothing was stored and the file stays as it was.";
            await audit.WriteAsync(HealthAudit.Entry(itemId, jobId, path, "par2-failed", why), cancellationToken);
            logger.LogWarning("PAR2 repair of {Job} failed: {Reason}", job.Name, outcome.Failure);
            return new Par2JobRepairResult(false, why, 0, fetched, decoded);
        }

        var segments = Patches(planned, outcome);
        using (outcome)
            await patches.SaveAsync(jobId, segments, cancellationToken);
        var message = $"Repaired with PAR2: {segments.Count} segment(s) rebuilt from {outcome.RecoverySlicesUsed} recovery slice(s); fetched {Size(decoded)} of articles ({Size(fetched)} on the wire) for {Size(sliceBytes)} of slices."
            + (outcome.Spilled ? $" Rebuilt in stripes within {Size(options.CurrentValue.Par2MemoryBytes)} of memory (Health:Par2MemoryBytes), the slices kept in the data directory meanwhile." : "");
        await MarkRepairedAsync(job, message, cancellationToken);
        await audit.WriteAsync(HealthAudit.Entry(itemId, jobId, path, "par2-repaired", message), cancellationToken);
        logger.LogInformation("PAR2 repair of {Job}: {Segments} segment(s) rebuilt, {Fetched} bytes fetched", job.Name, segments.Count, fetched);
        return new Par2JobRepairResult(true, message, segments.Count, fetched, decoded, sliceBytes);
    }

    private async Task<JobState> LoadAsync(Guid jobId, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var job = await context.Jobs.AsNoTracking().FirstOrDefaultAsync(j => j.Id == jobId, cancellationToken);
        if (job is null)
            return JobState.Failed("The job is gone.");
        var nzb = await context.JobNzbs.AsNoTracking().FirstOrDefaultAsync(n => n.JobId == jobId, cancellationToken);
        if (nzb is null)
            return JobState.Failed("The job's NZB is not stored.");
        NzbDocument document;
        await using (var stream = NzbCompression.OpenRead(nzb.GzipData))
            document = await parser.ParseAsync(stream, cancellationToken);
        var items = await context.DavItems.AsNoTracking().Where(i => i.JobId == jobId && !i.IsDirectory && i.Layout != null)
            .Join(context.FileHealth.AsNoTracking(), i => i.Id, h => h.DavItemId, (i, h) => new { Item = i, Health = h })
            .ToListAsync(cancellationToken);
        var damaged = items.Where(x => x.Health.MissingCount > 0 && x.Health.MissingIds != null)
            .Select(x => new DamagedItem(x.Item, x.Health, DavFileLayoutCodec.Decode(x.Item.Layout), HealthIds.Split(x.Health.MissingIds)))
            .ToList();
        if (damaged.Count == 0)
            return JobState.Failed("No file of the job has confirmed holes: nothing to repair.");
        return new JobState(job.Id, job.Name, document, damaged, null);
    }

    private async Task<PlannedRepair> MakePlanAsync(JobState job, CancellationToken cancellationToken)
    {
        var par2Files = Par2Files(job.Document);
        if (par2Files.Count == 0)
            return PlannedRepair.Impossible("The release has no PAR2 files.");
        var account = client.Traffic.For(Consumer);
        var (set, files, why) = await ReadSetAsync(job.Document, par2Files, account, cancellationToken);
        if (set is null)
            return PlannedRepair.Impossible(why!);

        // Each hole: the NZB file it belongs to, its byte range there, and the slices that range touches.
        var holeRanges = new List<HoleRange>();
        var bySegment = new Dictionary<string, (Par2SetFile File, int Index)>(StringComparer.Ordinal);
        foreach (var (setFile, nzbFile) in files)
        {
            var segments = nzbFile.Segments.Span;
            for (var i = 0; i < segments.Length; i++)
                bySegment.TryAdd(segments[i].MessageId, (setFile, i));
        }

        var unprotected = new List<string>();
        foreach (var id in job.Items.SelectMany(i => i.Holes).Distinct(StringComparer.Ordinal))
        {
            if (!bySegment.TryGetValue(id, out var at))
            {
                unprotected.Add(id);
                continue;
            }

            var nzbFile = files[at.File];
            if (!job.Parts.TryGetValue(nzbFile.Segments.Span[0].MessageId, out var part))
            {
                unprotected.Add(id);
                continue;
            }

            var start = at.Index * part.PartSize;
            var end = Math.Min(part.FileSize, start + part.PartSize);
            holeRanges.Add(new HoleRange(id, at.File, start, (int)(end - start)));
        }

        if (unprotected.Count > 0)
            return PlannedRepair.Impossible($"{unprotected.Count} hole(s) lie outside the files the PAR2 set protects (first: <{unprotected[0]}>).");

        var missing = holeRanges.SelectMany(h => set.SlicesTouching(h.File, h.Start, h.Start + h.Length)).ToHashSet();
        var volumes = par2Files.Select(f => (File: f, Blocks: VolumeBlocks(f.FileName))).Where(v => v.Blocks > 0).OrderBy(v => v.Blocks).ToList();
        var available = volumes.Sum(v => v.Blocks);
        var needed = missing.Count + Margin;
        var missingBytes = missing.Sum(index => (long)set.Locate(index).Length);
        var surviving = set.Files.Sum(f => f.Description.Length) - missingBytes;
        if (available < missing.Count)
        {
            return PlannedRepair.Impossible(
                $"Not enough recovery data: need {missing.Count}, have {available} (the release's PAR2 volumes hold {available} recovery slices for {missing.Count} lost slices).");
        }

        // Volumes in ascending size until enough slices, then the rest as spares (read only if a recovery slice is damaged).
        // Each read ahead only as far as the slices wanted from it (and the set's own packets, which
        // every volume repeats beside them): the repair stops reading once it has enough.
        var packets = par2Files.Min(f => f.EncodedBytes);
        var opened = new ConcurrentBag<BufferedSegmentStream>();
        var ordered = new List<Par2Volume>();
        var taken = 0;
        foreach (var (file, blocks) in volumes)
        {
            if (taken < needed)
            {
                var wanted = Math.Min(blocks, needed - taken);
                ordered.Add(Volume(file, account, (wanted * (set.SliceSize + 132)) + (2 * packets), opened));
                taken += blocks;
            }
        }

        var chosen = ordered.Count;
        foreach (var (file, _) in volumes.Skip(chosen))
            ordered.Add(Volume(file, account, null, opened));
        var recoveryBytes = (long)Math.Min(needed, available) * (set.SliceSize + 68);
        var rate = repairs.LastBytesPerSecond;
        double? seconds = rate > 0 ? (surviving + recoveryBytes) / rate : null;
        // Past the memory budget the slices read are stored while the rebuild runs: the data directory must hold them.
        var scratch = (long)needed * set.SliceSize > options.CurrentValue.Par2MemoryBytes ? surviving + recoveryBytes + ((long)missing.Count * set.SliceSize) : 0;
        if (scratch > 0 && FreeBytes(ScratchDirectory(nzbdav.CurrentValue)) is { } free && free < scratch)
        {
            return PlannedRepair.Impossible(
                $"PAR2 could repair this, but its {missing.Count} lost slice(s) of {Size(set.SliceSize)} pass Health:Par2MemoryBytes and the rebuild would store {Size(scratch)} in the data directory, which has {Size(free)} free.");
        }

        var summary = $"PAR2 can repair this: {missing.Count} lost slice(s) of {set.SliceCount} ({Size(set.SliceSize)} each), {available} recovery slice(s) in the release; fetches {Size(surviving + recoveryBytes)} ({Size(surviving)} of surviving data, {Size(recoveryBytes)} of recovery)"
            + (scratch > 0 ? $"; stores {Size(scratch)} in the data directory while it rebuilds (past Health:Par2MemoryBytes)" : "")
            + (seconds is { } s ? $", about {Duration(s)} at the last repair's rate ({Size((long)rate)}/s)." : ".");
        var plan = new Par2RepairPlan(true, summary, missing.Count, available, surviving + recoveryBytes, seconds);
        return new PlannedRepair(plan, set, files, ordered, missing.Order().ToList(), holeRanges, opened);
    }

    private static List<NzbFile> Par2Files(NzbDocument document) =>
        document.Files.Where(f => f.FileName.EndsWith(".par2", StringComparison.OrdinalIgnoreCase)).ToList();

    /// <summary>The recovery set the release's PAR2 files describe, and the NZB file of each file it protects; or why there is none.</summary>
    private async Task<(Par2RecoverySet? Set, Dictionary<Par2SetFile, NzbFile> Files, string? Failure)> ReadSetAsync(
        NzbDocument document, List<NzbFile> par2Files, TrafficAccount account, CancellationToken cancellationToken)
    {
        var reader = new Par2SetReader();
        Par2RecoverySet? set = null;
        string? failure = null;
        // The index (the smallest PAR2 file) describes the set; a volume does too, when the index is damaged.
        foreach (var file in par2Files.OrderBy(f => f.EncodedBytes))
        {
            try
            {
                await using var stream = await streams.OpenAsync(file, account, OperationKind.HealthCheck, cancellationToken);
                await reader.ReadAsync(file.FileName, stream, cancellationToken);
            }
            catch (SegmentUnavailableException error)
            {
                failure = $"{file.FileName} cannot be read: {error.Message}";
                continue;
            }

            set = reader.Build(out failure);
            if (set is not null)
                break;
        }

        var files = new Dictionary<Par2SetFile, NzbFile>();
        if (set is null)
            return (null, files, $"The release's PAR2 files do not describe a recovery set: {failure}.");

        // The set's files among the NZB's, by name.
        foreach (var setFile in set.Files)
        {
            var match = document.Files.FirstOrDefault(f => f.FileName == setFile.Description.Name)
                ?? document.Files.FirstOrDefault(f => string.Equals(f.FileName, setFile.Description.Name, StringComparison.OrdinalIgnoreCase));
            if (match is null)
                return (null, files, $"{setFile.Description.Name}, protected by the PAR2 set, is not among the NZB's files.");
            files[setFile] = match;
        }

        return (set, files, null);
    }

    private Par2Volume Volume(NzbFile file, TrafficAccount account, long? readAhead, ConcurrentBag<BufferedSegmentStream> opened) =>
        new(file.FileName, async ct =>
        {
            var stream = await streams.OpenAsync(file, account, OperationKind.HealthCheck, ct);
            opened.Add(stream);
            if (readAhead is { } end)
                stream.LimitReadAhead(end);
            return new ZeroFilledStream(stream);
        });

    // A set file's bytes, holes skipped (zeros): a file in a layout opens with its known sizes and nothing fetched now.
    private async Task<Stream> OpenFileAsync(JobState job, NzbFile file, IReadOnlySet<string> skipped, TrafficAccount account, ConcurrentBag<BufferedSegmentStream> opened, CancellationToken cancellationToken)
    {
        var fill = new SegmentHoles(skipped);
        var stream = job.Parts.TryGetValue(file.Segments.Span[0].MessageId, out var part)
            ? streams.Open(part.MessageIds, part.FileSize, part.PartSize, fill, ranged: false, account, OperationKind.HealthCheck)
            : await streams.OpenAsync(file, account, OperationKind.HealthCheck, cancellationToken);
        opened.Add(stream);
        return new ZeroFilledStream(stream);
    }

    // The segments the repair never reads: the holes, and every segment wholly inside a lost slice
    // (read ahead, they would cost their bytes for nothing).
    private static HashSet<string> Unneeded(JobState job, PlannedRepair planned, IReadOnlySet<int> missing)
    {
        var skipped = new HashSet<string>(job.Items.SelectMany(i => i.Holes), StringComparer.Ordinal);
        var set = planned.Set!;
        foreach (var (setFile, nzbFile) in planned.Files)
        {
            if (!job.Parts.TryGetValue(nzbFile.Segments.Span[0].MessageId, out var part))
                continue;
            for (var i = 0; i < part.MessageIds.Count; i++)
            {
                var start = i * part.PartSize;
                var end = Math.Min(part.FileSize, start + part.PartSize);
                if (end > start && set.SlicesTouching(setFile, start, end).All(missing.Contains))
                    skipped.Add(part.MessageIds[i]);
            }
        }

        return skipped;
    }

    // Every hole, its bytes cut from the rebuilt slices that cover it when the patch is written.
    private static List<RebuiltSegment> Patches(PlannedRepair planned, Par2RepairOutcome outcome)
    {
        var slices = outcome.Slices.ToDictionary(s => s.Index);
        var set = planned.Set!;
        var result = new List<RebuiltSegment>(planned.Holes.Count);
        foreach (var hole in planned.Holes)
        {
            result.Add(new RebuiltSegment(hole.MessageId, hole.Length, bytes =>
            {
                for (var offset = 0; offset < hole.Length;)
                {
                    var at = hole.Start + offset;
                    var slice = slices[hole.File.FirstSlice + (int)(at / set.SliceSize)];
                    var within = at - slice.Offset;
                    var count = (int)Math.Min(hole.Length - offset, slice.Length - within);
                    slice.Read(within, bytes.Slice(offset, count));
                    offset += count;
                }
            }));
        }

        return result;
    }

    private async Task MarkRepairedAsync(JobState job, string message, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var ids = job.Items.Select(i => i.Item.Id).ToList();
        var rows = await context.FileHealth.Where(h => ids.Contains(h.DavItemId)).ToListAsync(cancellationToken);
        foreach (var row in rows)
        {
            row.State = FileHealthState.Healthy;
            row.Repair = RepairStatus.None;
            row.RepairMessage = message;
            row.Detail = $"{row.MissingCount} lost segment(s) served from their PAR2 repair";
            row.LastRepairAt = time.GetUtcNow().UtcDateTime;
            row.RepairAttempts++;
            row.MissingIds = null;
            row.MissingCount = 0;
            holes.Remove(row.DavItemId);
        }

        await context.SaveChangesAsync(cancellationToken);
    }

    /// <summary>Where a rebuild over <see cref="HealthOptions.Par2MemoryBytes"/> keeps the slices it reads; emptied at start.</summary>
    public static string ScratchDirectory(NzbDav.Server.Configuration.NzbDavOptions settings) =>
        Path.Combine(Path.GetFullPath(settings.DataDirectory), "par2-scratch");

    // Free space where the scratch file would go (its nearest existing folder); null when unknown.
    private static long? FreeBytes(string directory)
    {
        try
        {
            var existing = directory;
            while (!Directory.Exists(existing) && Path.GetDirectoryName(existing) is { Length: > 0 } parent)
                existing = parent;
            return new DriveInfo(existing).AvailableFreeSpace;
        }
        catch (Exception error) when (error is IOException or UnauthorizedAccessException or ArgumentException)
        {
            return null;
        }
    }

    private static long Received(TrafficAccount account) => account.Received().Sum(p => p.Value);

    /// <summary>Recovery slices a volume holds by its name ("x.vol07+08.par2": 8), 0 for the index or an unknown name.</summary>
    internal static int VolumeBlocks(string name)
    {
        var match = VolumeName().Match(name);
        return match.Success && int.TryParse(match.Groups[1].ValueSpan, NumberStyles.None, CultureInfo.InvariantCulture, out var blocks) ? blocks : 0;
    }

    private static string Duration(double seconds) =>
        seconds < 90 ? $"{Math.Max(1, Math.Round(seconds)):0} s" : seconds < 5400 ? $"{Math.Round(seconds / 60):0} min" : $"{seconds / 3600:0.0} h";

    private static string Size(long bytes) => bytes >= 1_000_000_000 ? $"{bytes / 1e9:0.00} GB" : bytes >= 1_000_000 ? $"{bytes / 1e6:0.0} MB" : $"{bytes / 1e3:0.0} kB";

    [GeneratedRegex(@"\.vol\d+\+(\d+)\.par2$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex VolumeName();

    private sealed record DamagedItem(DavItem Item, FileHealth Health, DavFileLayout Layout, IReadOnlyList<string> Holes);

    private sealed record HoleRange(string MessageId, Par2SetFile File, long Start, int Length);

    private sealed record JobState(Guid Id, string Name, NzbDocument Document, IReadOnlyList<DamagedItem> Items, string? Failure)
    {
        /// <summary>The damaged files' layout parts by the first message-id of their NZB file: its sizes, known without a fetch.</summary>
        public Dictionary<string, LayoutPart> Parts { get; } = Items.SelectMany(i => i.Layout.Parts)
            .GroupBy(p => p.MessageIds[0], StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.First(), StringComparer.Ordinal);

        public static JobState Failed(string why) => new(Guid.Empty, "", null!, [], why);
    }

    private sealed record PlannedRepair(
        Par2RepairPlan Plan,
        Par2RecoverySet? Set,
        IReadOnlyDictionary<Par2SetFile, NzbFile> Files,
        IReadOnlyList<Par2Volume> Volumes,
        IReadOnlyList<int> MissingSlices,
        IReadOnlyList<HoleRange> Holes,
        ConcurrentBag<BufferedSegmentStream> Opened)
    {
        public static PlannedRepair Impossible(string why) => new(new Par2RepairPlan(false, why, 0, 0, 0), null, new Dictionary<Par2SetFile, NzbFile>(), [], [], [], []);
    }
}

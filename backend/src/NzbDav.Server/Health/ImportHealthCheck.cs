using System.Diagnostics;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Server.Queue;
using NzbDav.Usenet.Health;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Health;

/// <summary>
/// The check before a job is reported Completed: STAT the first two and last two segments of every
/// file and a small even sample of the rest (one pipelined round trip on the job's queue pool), so a
/// release whose articles are gone fails in seconds with the reason, and Sonarr/Radarr try another
/// one instead of importing a dead file. A release already found Broken here is recognised by its
/// message-ids and fails at once if they are still gone.
/// </summary>
public sealed class ImportHealthCheck(
    UsenetClient client,
    IDbContextFactory<NzbDavDbContext> contextFactory,
    HealthMetrics metrics,
    IOptionsMonitor<HealthOptions> options,
    TimeProvider time,
    ILogger<ImportHealthCheck> logger)
{
    /// <summary>Answers the files with their first health record; throws <see cref="IngestionFailedException"/> when the release is dead.</summary>
    public async Task<IReadOnlyList<IngestedFile>> CheckAsync(string jobName, NzbDocument document, IReadOnlyList<IngestedFile> files, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(document);
        ArgumentNullException.ThrowIfNull(files);
        var settings = options.CurrentValue;
        var started = Stopwatch.GetTimestamp();
        var released = document.Files.Select(f => f.PostedAt).Where(d => d is not null).Min()?.UtcDateTime ?? time.GetUtcNow().UtcDateTime;
        await using var sweep = new StatSweep(client, OperationKind.Queue);
        await RefuseKnownBrokenAsync(jobName, document, sweep, cancellationToken);
        if (!settings.ImportCheck)
            return files.Select(f => f.IsDirectory ? f : f with { Health = new ImportHealth(released, 0, 0, []) }).ToList();

        var plans = files.Where(f => !f.IsDirectory)
            .Select(f => (File: f, Segments: FileSegments.Of(f.Layout!)))
            .Select(p => (p.File, p.Segments, Sample: HealthRules.Sample(p.Segments.Count, false, 0, settings.ImportSampleFraction, [], Random.Shared)))
            .ToList();
        var answers = await AskAsync(sweep, plans.SelectMany(p => p.Sample.Select(p.Segments.IdAt)), cancellationToken);

        var result = new List<IngestedFile>(files.Count);
        var asked = 0;
        foreach (var file in files.Where(f => f.IsDirectory))
            result.Add(file);
        foreach (var (file, segments, sample) in plans)
        {
            asked += sample.Length;
            var missing = sample.Where(i => answers[segments.IdAt(i)] == ArticleAvailability.Missing).ToHashSet();
            var unknown = sample.Count(i => answers[segments.IdAt(i)] == ArticleAvailability.Unknown);
            if (missing.Count > 0)
                await JudgeAsync(jobName, file, segments, sample, missing, sweep, settings, cancellationToken);
            result.Add(file with { Health = new ImportHealth(released, sample.Length, unknown, missing.Order().Select(segments.IdAt).ToList()) });
        }
        metrics.ImportCheck("passed");
        logger.LogInformation("Import check of {JobName}: {Asked} segments of {Files} file(s) asked about in {Ms:F0} ms",
            jobName, asked, plans.Count, Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        return result;
    }

    /// <summary>
    /// A sampled hole says little alone: its neighbours are asked too, so the verdict sees the run it
    /// belongs to. Beyond the tolerance (or at the first or last segment) the job fails now.
    /// </summary>
    private async Task JudgeAsync(string jobName, IngestedFile file, FileSegments segments, int[] sample, HashSet<int> missing,
        StatSweep sweep, HealthOptions settings, CancellationToken cancellationToken)
    {
        var reach = settings.MaxConsecutiveMissing + 1;
        var neighbours = missing.SelectMany(i => Enumerable.Range(i - reach, (2 * reach) + 1))
            .Where(i => i >= 0 && i < segments.Count && !missing.Contains(i)).Distinct().ToArray();
        var answers = await AskAsync(sweep, neighbours.Select(segments.IdAt), cancellationToken);
        foreach (var i in neighbours)
        {
            if (answers[segments.IdAt(i)] == ArticleAvailability.Missing)
                missing.Add(i);
        }
        var (state, why) = HealthRules.Judge(segments, missing, settings.MaxConsecutiveMissing, settings.MaxMissingPercent);
        var sampledMissing = sample.Count(missing.Contains);
        var rateTooHigh = sampledMissing >= 2 && sampledMissing * 100.0 / sample.Length > settings.MaxMissingPercent;
        if (state == Data.Entities.FileHealthState.Broken || rateTooHigh)
        {
            metrics.ImportCheck("failed");
            var reason = state == Data.Entities.FileHealthState.Broken ? why
                : $"{sampledMissing} of {sample.Length} sampled segments missing on every provider, more than the {settings.MaxMissingPercent} % tolerated";
            logger.LogWarning("Import check of {JobName} failed: {File}: {Reason}", jobName, file.Name, reason);
            throw new IngestionFailedException($"Articles missing: '{file.Name}': {reason}. The release is incomplete on every provider; the download client should try another one.");
        }
    }

    /// <summary>Message-ids a health check confirmed missing in a Broken file: if the NZB uses one and it is still gone, the job fails at once.</summary>
    private async Task RefuseKnownBrokenAsync(string jobName, NzbDocument document, StatSweep sweep, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        if (!await context.KnownMissingArticles.AnyAsync(cancellationToken))
            return;
        var ids = document.Files.SelectMany(f => f.Segments.ToArray().Select(s => s.MessageId)).Distinct(StringComparer.Ordinal).ToList();
        var known = new List<(string MessageId, DateTime FoundAt, string JobName)>();
        foreach (var chunk in ids.Chunk(500))
        {
            var rows = await context.KnownMissingArticles.AsNoTracking().Where(k => chunk.Contains(k.MessageId))
                .Select(k => new { k.MessageId, k.FoundAt, k.JobName }).ToListAsync(cancellationToken);
            known.AddRange(rows.Select(r => (r.MessageId, r.FoundAt, r.JobName)));
        }
        if (known.Count == 0)
            return;
        var answers = await AskAsync(sweep, known.Select(k => k.MessageId), cancellationToken);
        var gone = known.Where(k => answers[k.MessageId] == ArticleAvailability.Missing).ToList();
        if (gone.Count == 0)
        {
            logger.LogInformation("Job {JobName} reuses {Count} article(s) once found missing; every one is back", jobName, known.Count);
            return;
        }
        metrics.ImportCheck("known_broken");
        var first = gone[0];
        throw new IngestionFailedException(
            $"This release was found Broken before ('{first.JobName}', {first.FoundAt:u}): {gone.Count} of its articles confirmed missing then are still missing on every provider (e.g. <{first.MessageId}>). The download client should try another release.");
    }

    private static async Task<Dictionary<string, ArticleAvailability>> AskAsync(StatSweep sweep, IEnumerable<string> ids, CancellationToken cancellationToken)
    {
        var list = ids.Distinct(StringComparer.Ordinal).ToList();
        var results = await sweep.CheckAsync(list, cancellationToken);
        var answers = new Dictionary<string, ArticleAvailability>(list.Count, StringComparer.Ordinal);
        for (var i = 0; i < list.Count; i++)
            answers[list[i]] = results[i];
        return answers;
    }
}

using System.Security.Cryptography;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Configuration;
using NzbDav.Server.Monitoring;
using NzbDav.Server.Queue;
using NzbDav.Usenet.Nzb;

namespace NzbDav.Server.Api;

/// <summary>
/// Turns an uploaded NZB into a job. The job and its NZB are saved in one transaction before the
/// caller answers, so a crash after the answer loses nothing. An NZB that does not parse becomes a
/// Failed history entry with the parser's message: Sonarr's failed-download handling then blocklists
/// the release and searches another, whereas a refused add would look like a broken download client.
/// A person adding a file by hand is answered the other way (<see cref="InvalidNzb.Refuse"/>): a file
/// that is not an NZB is refused at once with the parser's reason and nothing is kept.
/// </summary>
public sealed class JobSubmitter(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    INzbParser parser,
    IOptionsMonitor<NzbDavOptions> options,
    QueueSignal signal,
    TimeProvider timeProvider,
    ILogger<JobSubmitter> logger,
    IngestionMetrics? metrics = null)
{
    /// <summary>How a failure that retrying cannot change begins: the stored NZB never parses.</summary>
    public const string InvalidNzbPrefix = "Invalid NZB: ";

    /// <summary>Whether retrying a failed job could change its outcome (its stored NZB can never parse again).</summary>
    public static bool CanRetry(string? failMessage) => failMessage?.StartsWith(InvalidNzbPrefix, StringComparison.Ordinal) != true;

    /// <param name="password">The archive password given with the upload; else the name's <c>{{password}}</c>, else the NZB's meta.</param>
    /// <param name="invalid">What becomes of a file that does not parse as an NZB.</param>
    public async Task<SubmitOutcome> SubmitAsync(
        byte[] nzb, string fileName, string? nzbName, string? category, int priority, string? password, InvalidNzb invalid, CancellationToken cancellationToken)
    {
        var settings = options.CurrentValue;
        NzbDocument? document = null;
        string? problem = null;
        string? refusal = null;
        try
        {
            using var stream = new MemoryStream(nzb, writable: false);
            document = await parser.ParseAsync(stream, cancellationToken);
            if (document.Files.Count == 0)
                problem = refusal = "it lists no files";
        }
        catch (NzbFormatException ex)
        {
            problem = ex.Message;
            refusal = Refusal(ex);
        }
        if (refusal is not null && invalid == InvalidNzb.Refuse)
        {
            logger.LogInformation("Refused {FileName}: not an NZB ({Reason})", fileName, refusal);
            return new SubmitOutcome(null, $"not an NZB ({refusal})");
        }
        var failure = problem is null ? null : InvalidNzbPrefix + problem;

        var hash = Convert.ToHexStringLower(SHA256.HashData(nzb));
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        if (settings.DuplicateNzbPolicy == DuplicateNzbPolicy.Refuse && await context.Jobs.AnyAsync(j => j.NzbHash == hash, cancellationToken))
        {
            return new SubmitOutcome(null, "Duplicate NZB: the same NZB is already in the queue or history");
        }

        var (name, namedPassword) = JobNames.Split(nzbName ?? fileName);

        var now = timeProvider.GetUtcNow().UtcDateTime;
        var job = new Job
        {
            Id = Guid.NewGuid(),
            NzoId = NzoIds.Create(),
            Name = name,
            Category = SabCategories.Resolve(category ?? document?.Meta.Category, settings.EffectiveCategories),
            // -100 is SAB's "category default", -2 means "add paused"; both queue at normal priority.
            Priority = priority is >= -1 and <= 2 ? priority : 0,
            Status = failure is not null ? JobStatus.Failed : priority == -2 ? JobStatus.Paused : JobStatus.Queued,
            FailMessage = failure,
            AddedAt = now,
            CompletedAt = failure is not null ? now : null,
            TotalBytes = document?.EncodedBytes ?? 0,
            Password = (string.IsNullOrEmpty(password) ? null : password) ?? namedPassword ?? (document?.Meta.Passwords is [var first, ..] ? first : null),
            NzbHash = hash,
        };
        context.Jobs.Add(job);
        context.JobNzbs.Add(new JobNzb { JobId = job.Id, GzipData = NzbCompression.Compress(nzb), Length = nzb.Length });
        await context.SaveChangesAsync(cancellationToken);
        metrics?.NzbAdded();

        if (failure is null)
        {
            logger.LogInformation("Queued {NzoId} {JobName} ({Category}, {Files} files)", job.NzoId, job.Name, job.Category, document!.Files.Count);
            signal.Notify();
        }
        else
        {
            logger.LogWarning("Rejected {NzoId} {JobName} into history: {Reason}", job.NzoId, job.Name, failure);
        }

        return new SubmitOutcome(job.NzoId, null);
    }
    // "line 1: Data at the root level is invalid": where first, as a person scanning the message
    // looks for it, and without the parser's own "not an NZB", which the caller already says.
    private static string Refusal(NzbFormatException ex)
    {
        var detail = ex.Detail;
        const string xml = "NZB is not well-formed XML: ";
        if (detail.StartsWith(xml, StringComparison.Ordinal))
            detail = "not well-formed XML: " + detail[xml.Length..];
        detail = detail.Replace("; this is not an NZB", "", StringComparison.Ordinal).TrimEnd('.');
        return ex.LineNumber > 0 ? $"line {ex.LineNumber}: {detail}" : detail;
    }
}

/// <summary>What <see cref="JobSubmitter.SubmitAsync"/> does with a file that is not an NZB.</summary>
public enum InvalidNzb
{
    /// <summary>A Failed history entry with the parser's reason (the SABnzbd API: Sonarr blocklists on it).</summary>
    History,

    /// <summary>Refused with the reason; no job, nothing in history (someone adding by hand).</summary>
    Refuse,
}

using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data.Entities;
using NzbDav.Data;
using NzbDav.Server.Api;
using NzbDav.Server.Configuration;
using NzbDav.Server.Queue;
using NzbDav.Usenet.Configuration;

namespace NzbDav.Server.WebUi;

/// <summary>
/// The Queue and History pages' calls: the queue with live progress, adding NZBs (upload of one or
/// several files, or a URL), pausing, resuming, reprioritising, deleting and retrying jobs, the
/// history with paging and search, and the stored NZB. The same <see cref="JobCommands"/> and
/// <see cref="JobSubmitter"/> as the SABnzbd API, so both always agree.
/// </summary>
public static class UiJobEndpoints
{
    private const int MaxPageSize = 200;

    public static void MapUiJobs(this RouteGroupBuilder api)
    {
        api.MapGet("/queue", QueueAsync).RequireAuthorization().Produces<UiQueueView>();
        api.MapPost("/queue/upload", UploadAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(IFormFileCollection), "multipart/form-data")).Produces<UiAddResult>().Produces<UiError>(StatusCodes.Status400BadRequest);
        api.MapPost("/queue/url", AddUrlAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiUrlRequest))).Produces<UiAddResult>().Produces<UiError>(StatusCodes.Status400BadRequest);
        api.MapPost("/queue/pause", (QueuePause pause, HttpContext context) => SetQueuePausedAsync(pause, true, context.RequestAborted))
            .RequireAuthorization().Produces<UiQueuePaused>();
        api.MapPost("/queue/resume", (QueuePause pause, HttpContext context) => SetQueuePausedAsync(pause, false, context.RequestAborted))
            .RequireAuthorization().Produces<UiQueuePaused>();
        api.MapPost("/jobs/{id}/pause", (string id, JobCommands jobs, HttpContext context) => SetJobPausedAsync(jobs, id, true, context.RequestAborted))
            .RequireAuthorization().Produces(StatusCodes.Status204NoContent).Produces<UiError>(StatusCodes.Status409Conflict);
        api.MapPost("/jobs/{id}/resume", (string id, JobCommands jobs, HttpContext context) => SetJobPausedAsync(jobs, id, false, context.RequestAborted))
            .RequireAuthorization().Produces(StatusCodes.Status204NoContent).Produces<UiError>(StatusCodes.Status409Conflict);
        api.MapPost("/jobs/{id}/priority", SetPriorityAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiPriorityRequest))).Produces(StatusCodes.Status204NoContent).Produces<UiError>(StatusCodes.Status400BadRequest).Produces<UiError>(StatusCodes.Status409Conflict);
        api.MapPost("/jobs/{id}/delete", DeleteAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiDeleteRequest))).Produces(StatusCodes.Status204NoContent).Produces<UiError>(StatusCodes.Status404NotFound);
        api.MapPost("/jobs/{id}/retry", RetryAsync).RequireAuthorization().Produces<UiRetried>().Produces<UiError>(StatusCodes.Status409Conflict);
        api.MapGet("/jobs/{id}/nzb", NzbAsync).RequireAuthorization()
            .Produces<byte[]>(StatusCodes.Status200OK, "application/x-nzb").Produces<UiError>(StatusCodes.Status404NotFound);
        api.MapGet("/history", HistoryAsync).RequireAuthorization().Produces<UiHistoryPage>().Produces<UiError>(StatusCodes.Status400BadRequest);
    }

    private static async Task<IResult> QueueAsync(
        IDbContextFactory<NzbDavDbContext> contextFactory, IOptionsMonitor<NzbDavOptions> options, QueuePause pause, IngestionProgress progress, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var all = await JobCommands.QueueInRunOrderAsync(context, null, cancellationToken);
        var settings = options.CurrentValue;
        var paused = pause.IsPaused || settings.Queue.Hold;
        var estimate = SabQueueEstimate.Compute(all, progress, paused, settings.Queue.MaxConcurrentJobs);
        var jobs = all.Select(job =>
        {
            var figures = estimate.For(job);
            var running = job.Status == JobStatus.Processing ? progress.Find(job.Id) : null;
            double? left = figures.TimeLeft > TimeSpan.Zero ? Math.Round(figures.TimeLeft.TotalSeconds) : null;
            return new UiQueueJob(job.NzoId, job.Name, job.Category, job.Priority, job.Status.ToString(), job.TotalBytes,
                figures.Percentage, running?.Step, left, Utc(job.AddedAt), job.Password is not null);
        }).ToList();
        double? total = estimate.TimeLeft > TimeSpan.Zero ? Math.Round(estimate.TimeLeft.TotalSeconds) : null;
        return Results.Ok(new UiQueueView(paused, estimate.BytesPerSecond, total, [SabCategories.Default, .. settings.EffectiveCategories], jobs));
    }

    private static async Task<IResult> UploadAsync(HttpContext context, JobSubmitter submitter, IOptionsMonitor<NzbDavOptions> options)
    {
        var cancellationToken = context.RequestAborted;
        if (!context.Request.HasFormContentType)
            return Results.BadRequest(new UiError("Send the NZB files as multipart/form-data in the field 'files'."));
        // One upload may carry several NZBs; together they must fit what one NZB may be.
        var uploadLimit = Hosting.HttpLimits.UploadLimit(options.CurrentValue);
        Hosting.HttpLimits.AllowRequestBody(context, uploadLimit);
        if (context.Request.ContentLength > uploadLimit)
            return TooLarge(uploadLimit);
        IFormCollection form;
        try
        {
            form = await context.Request.ReadFormAsync(cancellationToken);
        }
        catch (BadHttpRequestException ex) when (ex.StatusCode == StatusCodes.Status413PayloadTooLarge)
        {
            return TooLarge(uploadLimit);
        }
        catch (Exception ex) when (ex is InvalidDataException or IOException or BadHttpRequestException && !cancellationToken.IsCancellationRequested)
        {
            return Results.BadRequest(new UiError("The upload could not be read: " + ex.Message));
        }

        var files = form.Files.GetFiles("files");
        if (files.Count == 0)
            return Results.BadRequest(new UiError("Choose at least one NZB file."));
        var fields = AddFields.From(form["name"], form["category"], form["priority"], form["password"]);
        if (fields.Problem is { } problem)
            return Results.BadRequest(new UiError(problem));
        if (fields.Name is not null && files.Count > 1)
            return Results.BadRequest(new UiError("A name can only be given when adding one NZB; the others are named after their files."));

        var limit = options.CurrentValue.MaxNzbBytes;
        var added = new List<UiAdded>();
        var refused = new List<UiRefused>();
        foreach (var file in files)
        {
            var fileName = Path.GetFileName(file.FileName);
            if (file.Length == 0)
            {
                refused.Add(new UiRefused(fileName, "The file is empty."));
                continue;
            }

            if (file.Length > limit)
            {
                refused.Add(new UiRefused(fileName, $"NZB is larger than {ByteSize.Format(limit)}, the largest NZB allowed (Settings → SABnzbd → Largest NZB)"));
                continue;
            }

            var bytes = new byte[file.Length];
            await using (var stream = file.OpenReadStream())
            {
                await stream.ReadExactlyAsync(bytes, cancellationToken);
            }

            var outcome = await submitter.SubmitAsync(bytes, fileName, fields.Name, fields.Category, fields.Priority, fields.Password, InvalidNzb.Refuse, cancellationToken);
            if (outcome.NzoId is { } id)
                added.Add(new UiAdded(fileName, id));
            else
                refused.Add(new UiRefused(fileName, outcome.Error!));
        }

        return Results.Ok(new UiAddResult(added, refused));
    }

    private static IResult TooLarge(long limit) =>
        Results.Json(new UiError($"The upload is larger than {ByteSize.Format(limit)}; add fewer NZBs at once (Settings → SABnzbd → Largest NZB sets the limit)."), statusCode: StatusCodes.Status413PayloadTooLarge);

    private static async Task<IResult> AddUrlAsync(HttpContext context, JobSubmitter submitter, NzbUrlFetcher fetcher)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiUrlRequest>(context);
        if (problem is not null)
            return problem;
        var fields = AddFields.From(request!.Name, request.Category, request.Priority?.ToString(System.Globalization.CultureInfo.InvariantCulture), request.Password);
        if (fields.Problem is { } invalid)
            return Results.BadRequest(new UiError(invalid));
        if (string.IsNullOrWhiteSpace(request.Url))
            return Results.BadRequest(new UiError("Enter the NZB's URL."));
        var (nzb, fileName, error) = await fetcher.FetchAsync(request.Url.Trim(), context.RequestAborted);
        if (nzb is null)
            return Results.BadRequest(new UiError(error!));
        var outcome = await submitter.SubmitAsync(nzb, fileName, fields.Name, fields.Category, fields.Priority, fields.Password, InvalidNzb.Refuse, context.RequestAborted);
        return Results.Ok(outcome.NzoId is { } id
            ? new UiAddResult([new UiAdded(fileName, id)], [])
            : new UiAddResult([], [new UiRefused(fileName, outcome.Error!)]));
    }

    private static async Task<IResult> SetQueuePausedAsync(QueuePause pause, bool paused, CancellationToken cancellationToken)
    {
        await pause.SetAsync(paused, cancellationToken);
        return Results.Ok(new UiQueuePaused(pause.IsPaused));
    }

    private static async Task<IResult> SetJobPausedAsync(JobCommands jobs, string id, bool paused, CancellationToken cancellationToken)
    {
        var changed = await jobs.SetPausedAsync([id], paused, cancellationToken);
        return changed.Count > 0
            ? Results.NoContent()
            : Results.Conflict(new UiError(paused ? "That job is not waiting or running in the queue." : "That job is not paused."));
    }

    private static async Task<IResult> SetPriorityAsync(string id, HttpContext context, JobCommands jobs)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiPriorityRequest>(context);
        if (problem is not null)
            return problem;
        if (request!.Priority is not (>= -1 and <= 2) || request.Priority is not { } priority)
            return Results.BadRequest(new UiError("The priority must be -1 (low), 0 (normal), 1 (high) or 2 (force)."));
        return await jobs.SetPriorityAsync(id, priority, context.RequestAborted)
            ? Results.NoContent()
            : Results.Conflict(new UiError("That job is not in the queue."));
    }

    private static async Task<IResult> DeleteAsync(string id, HttpContext context, JobCommands jobs)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiDeleteRequest>(context);
        if (problem is not null)
            return problem;
        var cancellationToken = context.RequestAborted;
        if ((await jobs.DeleteAsync([id], JobCommands.QueueStatuses, cancellationToken)).Count > 0)
            return Results.NoContent();
        var removed = request!.DeleteFiles
            ? (await jobs.DeleteAsync([id], JobCommands.HistoryStatuses, cancellationToken)).Count > 0
            : await jobs.RemoveFromHistoryAsync(id, cancellationToken);
        return removed ? Results.NoContent() : Results.NotFound(new UiError("There is no such job."));
    }

    private static async Task<IResult> RetryAsync(string id, JobCommands jobs, CancellationToken cancellationToken)
    {
        var refused = await jobs.RetryAsync(id, cancellationToken);
        return refused is null ? Results.Ok(new UiRetried(id)) : Results.Conflict(new UiError(refused));
    }

    private static async Task<IResult> NzbAsync(string id, IDbContextFactory<NzbDavDbContext> contextFactory, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var found = await (from job in context.Jobs.AsNoTracking()
                           join nzb in context.JobNzbs on job.Id equals nzb.JobId
                           where job.NzoId == id
                           select new { job.Name, nzb.GzipData }).FirstOrDefaultAsync(cancellationToken);
        if (found is null)
            return Results.NotFound(new UiError("There is no such job, or its NZB was not kept."));
        await using var source = NzbCompression.OpenRead(found.GzipData);
        using var plain = new MemoryStream();
        await source.CopyToAsync(plain, cancellationToken);
        return Results.File(plain.ToArray(), "application/x-nzb", found.Name + ".nzb");
    }

    private static async Task<IResult> HistoryAsync(
        IDbContextFactory<NzbDavDbContext> contextFactory, int? page, int? pageSize, string? search, string? status, CancellationToken cancellationToken)
    {
        JobStatus[] statuses = (status ?? "all").ToLowerInvariant() switch
        {
            "all" or "" => JobCommands.HistoryStatuses,
            "completed" => [JobStatus.Completed],
            "failed" => [JobStatus.Failed],
            _ => [],
        };
        if (statuses.Length == 0)
            return Results.BadRequest(new UiError($"'{status}' is not a history filter; use all, completed or failed."));
        var size = Math.Clamp(pageSize ?? 25, 1, MaxPageSize);
        var number = Math.Max(1, page ?? 1);
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        // Walked in history order through its index and cut at the page: without INDEXED BY, SQLite
        // picks the Status index (the filter) and sorts the whole history for every page.
        var ordered = context.JobsThrough(NzbDavDbContext.HistoryOrderIndex);
        var query = context.Jobs.AsNoTracking().Where(j => statuses.Contains(j.Status) && !j.RemovedFromHistory);
        var pageQuery = ordered.AsNoTracking().Where(j => statuses.Contains(j.Status) && !j.RemovedFromHistory);
        if (!string.IsNullOrWhiteSpace(search))
        {
            // SQLite's LIKE ignores ASCII case, PostgreSQL's ILIKE any case; the escape keeps % and _ in a search literal.
            var pattern = "%" + search.Trim().Replace("\\", "\\\\", StringComparison.Ordinal).Replace("%", "\\%", StringComparison.Ordinal).Replace("_", "\\_", StringComparison.Ordinal) + "%";
            if (context.Database.IsSqlite())
            {
                query = query.Where(j => EF.Functions.Like(j.Name, pattern, "\\"));
                pageQuery = pageQuery.Where(j => EF.Functions.Like(j.Name, pattern, "\\"));
            }
            else
            {
                query = query.Where(j => EF.Functions.ILike(j.Name, pattern, "\\"));
                pageQuery = pageQuery.Where(j => EF.Functions.ILike(j.Name, pattern, "\\"));
            }
        }

        var total = await query.CountAsync(cancellationToken);
        var rows = await pageQuery.OrderByDescending(j => j.CompletedAt).ThenByDescending(j => j.AddedAt)
            .Skip((number - 1) * size).Take(size)
            .ToListAsync(cancellationToken);
        // The folders of this page only, in a second query: as a sub-select of the paged query,
        // SQLite computes it for every history row before sorting and cutting the page.
        var ids = rows.Select(j => j.Id).ToList();
        var folders = await context.DavItems.AsNoTracking().Where(d => ids.Contains(d.JobId) && d.ParentId == null)
            .Select(d => new { d.JobId, d.Path }).ToListAsync(cancellationToken);
        var folderOf = folders.GroupBy(f => f.JobId).ToDictionary(g => g.Key, g => g.First().Path);
        var jobs = rows.Select(j => new UiHistoryJob(
            j.NzoId, j.Name, j.Category, j.Status.ToString(), j.FailMessage, j.TotalBytes,
            Utc(j.AddedAt), j.CompletedAt is { } completed ? Utc(completed) : null, j.StoragePath,
            folderOf.GetValueOrDefault(j.Id), j.Status == JobStatus.Failed && JobSubmitter.CanRetry(j.FailMessage))).ToList();
        return Results.Ok(new UiHistoryPage(total, number, size, jobs));
    }

    private static DateTimeOffset Utc(DateTime value) => new(DateTime.SpecifyKind(value, DateTimeKind.Utc));

    /// <summary>The optional fields of an add, checked: a bad priority or category is refused, not guessed.</summary>
    private sealed record AddFields(string? Name, string? Category, int Priority, string? Password, string? Problem)
    {
        public static AddFields From(string? name, string? category, string? priority, string? password)
        {
            var trimmedName = string.IsNullOrWhiteSpace(name) ? null : name.Trim();
            if (trimmedName is not null && (trimmedName.Length > 200 || trimmedName.Any(c => char.IsControl(c) || c is '/' or '\\')))
                return new AddFields(null, null, 0, null, "The name must be at most 200 characters, without slashes or control characters.");
            var value = 0;
            var priorityValid = string.IsNullOrWhiteSpace(priority)
                || (int.TryParse(priority, System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out value) && value is >= -2 and <= 2);
            if (!priorityValid)
                return new AddFields(null, null, 0, null, "The priority must be -1 (low), 0 (normal), 1 (high), 2 (force) or -2 (add paused).");
            return new AddFields(trimmedName, string.IsNullOrWhiteSpace(category) ? null : category.Trim(), value, string.IsNullOrEmpty(password) ? null : password, null);
        }
    }
}

/// <summary>The queue: its state, speed and time left, and every job in the order they will run.</summary>
public sealed record UiQueueView(bool Paused, double BytesPerSecond, double? TimeLeftSeconds, IReadOnlyList<string> Categories, IReadOnlyList<UiQueueJob> Jobs);

/// <summary>A queue job. <see cref="Status"/> is Queued, Paused or Processing; <see cref="Step"/> says what a running one is doing.</summary>
public sealed record UiQueueJob(
    string Id, string Name, string Category, int Priority, string Status, long TotalBytes, int Percentage, string? Step,
    double? TimeLeftSeconds, DateTimeOffset AddedAt, bool HasPassword);

/// <summary>What an add did with each NZB it was given.</summary>
public sealed record UiAddResult(IReadOnlyList<UiAdded> Added, IReadOnlyList<UiRefused> Refused);

public sealed record UiAdded(string File, string Id);

public sealed record UiRefused(string File, string Error);

public sealed record UiUrlRequest(string? Url, string? Category = null, int? Priority = null, string? Name = null, string? Password = null);

public sealed record UiQueuePaused(bool Paused);

public sealed record UiPriorityRequest(int? Priority);

public sealed record UiDeleteRequest(bool DeleteFiles);

public sealed record UiRetried(string Id);

/// <summary>One page of the history, newest first, and how many entries match in all.</summary>
public sealed record UiHistoryPage(int Total, int Page, int PageSize, IReadOnlyList<UiHistoryJob> Jobs);

/// <summary>
/// A history entry. <see cref="ContentPath"/> is the job's folder under <c>/content</c> for the Files
/// page, null when it has no files. <see cref="CanRetry"/> is false for a failure that retrying cannot
/// change (an NZB that never parses).
/// </summary>
public sealed record UiHistoryJob(
    string Id, string Name, string Category, string Status, string? FailMessage, long TotalBytes,
    DateTimeOffset AddedAt, DateTimeOffset? CompletedAt, string? StoragePath, string? ContentPath, bool CanRetry);

using System.Buffers;
using System.Diagnostics;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Configuration;
using NzbDav.Server.Health;
using NzbDav.Server.WebDav;

namespace NzbDav.Server.WebUi;

/// <summary>
/// The Files page's calls: the library under <c>/content</c> as WebDAV serves it (categories, jobs,
/// files, the files inside archives), each entry's WebDAV address and path under the rclone mount;
/// a file's bytes for downloads and the browser's player; and a read test that opens a file the way
/// a player does and reports time to first byte and read speed.
/// </summary>
public static class UiFileEndpoints
{
    private static readonly TimeSpan TestDuration = TimeSpan.FromSeconds(5);
    private const long TestBytes = 256L * 1024 * 1024;

    public static void MapUiFiles(this RouteGroupBuilder api)
    {
        api.MapGet("/files", ListAsync).RequireAuthorization()
            .Produces<UiFileListing>().Produces<UiError>(StatusCodes.Status400BadRequest).Produces<UiError>(StatusCodes.Status404NotFound);
        api.MapMethods("/files/raw", [HttpMethods.Get, HttpMethods.Head], RawAsync).RequireAuthorization()
            .Produces<byte[]>(StatusCodes.Status200OK, "application/octet-stream").Produces(StatusCodes.Status206PartialContent)
            .Produces(StatusCodes.Status416RangeNotSatisfiable).Produces<UiError>(StatusCodes.Status404NotFound);
        api.MapPost("/files/test", TestAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiFileTestRequest))).Produces<UiFileTestResult>().Produces<UiError>(StatusCodes.Status404NotFound)
            .Produces<UiError>(StatusCodes.Status502BadGateway);
    }

    private static async Task<IResult> ListAsync(
        HttpContext context, DavTree tree, IDbContextFactory<NzbDavDbContext> contexts, IOptionsMonitor<NzbDavOptions> options, IOptionsMonitor<WebDavOptions> davOptions, string? path)
    {
        var segments = Parse(path ?? "/" + DavTree.Content, out var problem);
        if (segments is null)
            return problem!;
        var baseUrl = BaseUrl(context, davOptions.CurrentValue);
        var folder = await tree.ResolveAsync(segments, baseUrl, context.RequestAborted);
        if (folder is null)
            return Results.NotFound(new UiError($"There is nothing at {path}; it may have been deleted."));
        if (!folder.IsCollection)
            return Results.BadRequest(new UiError($"{path} is a file, not a folder."));
        var children = await tree.ListAsync(folder, baseUrl, context.RequestAborted);
        var mount = options.CurrentValue.MountPath;
        var ids = children.Where(c => c.Item is { IsDirectory: false }).Select(c => c.Item!.Id).ToList();
        Dictionary<Guid, string> states = [];
        if (ids.Count > 0)
        {
            await using var db = await contexts.CreateDbContextAsync(context.RequestAborted);
            foreach (var chunk in ids.Chunk(500))
            {
                var rows = await db.FileHealth.AsNoTracking().Where(h => chunk.Contains(h.DavItemId))
                    .Select(h => new { h.DavItemId, h.State, h.Repair }).ToListAsync(context.RequestAborted);
                foreach (var row in rows)
                    states[row.DavItemId] = row.Repair == RepairStatus.ActionNeeded ? "action-needed" : HealthMetrics.StateName(row.State);
            }
        }
        var entries = children
            .OrderByDescending(c => c.IsCollection).ThenBy(c => c.Name, StringComparer.OrdinalIgnoreCase)
            .Select(c => Entry(c, baseUrl, mount, c.Item is { } item && states.TryGetValue(item.Id, out var state) ? state : null))
            .ToList();
        var here = PathOf(folder.Segments);
        var parent = folder.Segments.Count > 1 ? PathOf(folder.Segments.Take(folder.Segments.Count - 1).ToList()) : null;
        return Results.Ok(new UiFileListing(here, parent, baseUrl + folder.Href, MountPathOf(mount, here), entries));
    }

    private static async Task RawAsync(HttpContext context, DavTree tree, DavRequestHandler handler, IOptionsMonitor<WebDavOptions> davOptions, string? path, bool? download)
    {
        var segments = Parse(path, out var problem);
        var resource = segments is null ? null : await tree.ResolveAsync(segments, BaseUrl(context, davOptions.CurrentValue), context.RequestAborted);
        if (resource is null || resource.IsCollection)
        {
            await (problem ?? Results.NotFound(new UiError($"There is no file at {path}."))).ExecuteAsync(context);
            return;
        }

        if (download == true)
            context.Response.Headers.ContentDisposition = new System.Net.Mime.ContentDisposition { FileName = resource.Name, DispositionType = "attachment" }.ToString();
        await handler.ServeFileAsync(context, segments!);
    }

    private static async Task<IResult> TestAsync(
        HttpContext context, DavTree tree, IEnumerable<IDavFileOpener> openers, ActiveStreams streams, IOptionsMonitor<WebDavOptions> davOptions, ILoggerFactory loggers)
    {
        var (request, invalid) = await UiSessionEndpoints.ReadAsync<UiFileTestRequest>(context);
        if (invalid is not null)
            return invalid;
        var segments = Parse(request!.Path, out var problem);
        if (segments is null)
            return problem!;
        var cancellationToken = context.RequestAborted;
        var resource = await tree.ResolveAsync(segments, BaseUrl(context, davOptions.CurrentValue), cancellationToken);
        if (resource?.Item is not { IsDirectory: false } item)
            return Results.NotFound(new UiError($"There is no library file at {request.Path}."));
        var opener = openers.LastOrDefault();
        if (opener is null)
            return Results.Json(new UiError("File streaming is not available in this build."), statusCode: StatusCodes.Status503ServiceUnavailable);

        var length = Math.Min(item.Size, TestBytes);
        var started = Stopwatch.GetTimestamp();
        var buffer = ArrayPool<byte>.Shared.Rent(DavRequestHandler.CopyBufferSize);
        try
        {
            await using var source = await opener.OpenAsync(item, length, ranged: false, cancellationToken);
            // Shown on the dashboard like any reader, with the UI as its client.
            using var active = streams.Start(resource.Href, "web UI read test", 0, length, item.Size);
            double? firstByteMs = null;
            long read = 0;
            while (read < length && Stopwatch.GetElapsedTime(started) < TestDuration)
            {
                var n = await source.ReadAsync(buffer.AsMemory(0, (int)Math.Min(buffer.Length, length - read)), cancellationToken);
                if (n == 0)
                    break;
                firstByteMs ??= Stopwatch.GetElapsedTime(started).TotalMilliseconds;
                read += n;
                active.Advance(n);
            }

            var seconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
            return Results.Ok(new UiFileTestResult(Math.Round(firstByteMs ?? 0, 1), read, Math.Round(seconds, 3), seconds > 0 ? Math.Round(read / seconds) : 0));
        }
        catch (Exception ex) when (ex is DavUnavailableException or IOException)
        {
            loggers.CreateLogger(typeof(UiFileEndpoints)).LogWarning("Read test of {Path} failed: {Reason}", resource.Href, ex.Message);
            return Results.Json(new UiError($"Reading {request.Path} failed: {ex.Message}"), statusCode: StatusCodes.Status502BadGateway);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>The segments of a path under <c>/content</c>, or null with the 400 that says why.</summary>
    private static IReadOnlyList<string>? Parse(string? path, out IResult? problem)
    {
        var segments = DavPath.ParseDecoded(path);
        if (segments is null || segments.Count == 0 || segments[0] != DavTree.Content)
        {
            problem = Results.BadRequest(new UiError($"'{path}' is not a path under /{DavTree.Content}."));
            return null;
        }

        problem = null;
        return segments;
    }

    private static UiFileEntry Entry(DavResource resource, string baseUrl, string mount, string? health)
    {
        var path = PathOf(resource.Segments);
        return new UiFileEntry(resource.Name, path, resource.IsCollection, resource.IsCollection ? 0 : resource.Length, resource.Modified,
            baseUrl + resource.Href, MountPathOf(mount, path), resource.Item is { IsDirectory: false } item ? item.Id : null, health);
    }

    private static string PathOf(IReadOnlyList<string> segments) => "/" + string.Join('/', segments);

    private static string MountPathOf(string mount, string path) => mount.TrimEnd('/') + path;

    /// <summary>The address WebDAV clients use: the configured public URL, else the one this request came to.</summary>
    private static string BaseUrl(HttpContext context, WebDavOptions dav) =>
        (string.IsNullOrWhiteSpace(dav.PublicUrl) ? context.Request.Scheme + "://" + context.Request.Host.Value : dav.PublicUrl).TrimEnd('/');
}

/// <summary>A folder of the library: where it is, its parent (null at <c>/content</c>), its addresses, and what it holds (folders first).</summary>
public sealed record UiFileListing(string Path, string? Parent, string WebDavUrl, string MountPath, IReadOnlyList<UiFileEntry> Entries);

/// <summary>A folder or file of the library; <see cref="WebDavUrl"/> is absolute, <see cref="MountPath"/> the same path under the rclone mount;
/// a library file has its <see cref="Id"/> and <see cref="Health"/> (healthy, degraded, broken, unknown, action-needed; null before any record).</summary>
public sealed record UiFileEntry(string Name, string Path, bool IsDirectory, long Size, DateTimeOffset Modified, string WebDavUrl, string MountPath, Guid? Id = null, string? Health = null);

public sealed record UiFileTestRequest(string? Path);

/// <summary>A read test: time to the first byte, and what was read in how long.</summary>
public sealed record UiFileTestResult(double FirstByteMs, long Bytes, double Seconds, double BytesPerSecond);

using System.Globalization;
using System.Text;
using NzbDav.Server.Hosting;
using Serilog.Events;

namespace NzbDav.Server.WebUi;

/// <summary>The Logs page's calls: the newest entries of the in-memory ring, filtered, and the same as a text file.</summary>
public static class UiLogEndpoints
{
    private const int DefaultLimit = 500;

    public static void MapUiLogs(this RouteGroupBuilder api)
    {
        api.MapGet("/logs", (LogRing ring, long? after, string? level, string? source, string? search, int? limit) =>
        {
            if (ParseLevel(level) is not { } minimum)
                return BadLevel(level);
            var entries = ring.Read(Math.Max(0, after ?? 0), minimum, source, search, Math.Clamp(limit ?? DefaultLimit, 1, ring.Capacity));
            return Results.Ok(new UiLogs(entries, ring.Last, ring.StartupWarnings));
        }).RequireAuthorization().Produces<UiLogs>().Produces<UiError>(StatusCodes.Status400BadRequest);

        api.MapPost("/logs/startup/dismiss", async (LogRing ring, HttpContext context) =>
        {
            var (request, problem) = await UiSessionEndpoints.ReadAsync<UiDismissRequest>(context);
            if (problem is not null)
                return problem;
            if (request?.Through is not { } through || through < 1)
                return Results.BadRequest(new UiError("Send {\"through\": N}: the sequence of the newest start-up warning read."));
            ring.DismissStartupWarnings(through);
            return Results.Ok(new UiStartupWarnings(ring.StartupWarnings));
        }).RequireAuthorization().WithMetadata(new UiRequestBody(typeof(UiDismissRequest))).Produces<UiStartupWarnings>().Produces<UiError>(StatusCodes.Status400BadRequest);

        api.MapGet("/logs/download", (LogRing ring, string? level, string? source, string? search) =>
        {
            if (ParseLevel(level) is not { } minimum)
                return BadLevel(level);
            var text = new StringBuilder();
            foreach (var entry in ring.Read(0, minimum, source, search, ring.Capacity))
            {
                text.Append(entry.Timestamp.ToString("yyyy-MM-dd HH:mm:ss.fff zzz", CultureInfo.InvariantCulture))
                    .Append(" [").Append(entry.Level).Append("] ").Append(entry.Source).Append(": ").Append(entry.Message).Append('\n');
                if (entry.Exception is not null)
                    text.Append(entry.Exception).Append('\n');
            }

            return Results.File(Encoding.UTF8.GetBytes(text.ToString()), "text/plain; charset=utf-8", "nzbdav-log.txt");
        }).RequireAuthorization().Produces<string>(StatusCodes.Status200OK, "text/plain");
    }

    private static LogEventLevel? ParseLevel(string? level) =>
        string.IsNullOrWhiteSpace(level) ? LogEventLevel.Verbose
        : Enum.TryParse<LogEventLevel>(level, ignoreCase: true, out var parsed) && Enum.IsDefined(parsed) ? parsed
        : null;

    private static IResult BadLevel(string? level) =>
        Results.BadRequest(new UiError($"'{level}' is not a log level; use Verbose, Debug, Information, Warning, Error or Fatal."));
}

/// <summary>
/// Log entries oldest first, the newest sequence number to ask <c>after</c> next time, and the
/// start-up's warnings, pinned until dismissed.
/// </summary>
public sealed record UiLogs(IReadOnlyList<LogEntry> Entries, long Last, IReadOnlyList<LogEntry> Startup);

public sealed record UiDismissRequest(long? Through);

public sealed record UiStartupWarnings(IReadOnlyList<LogEntry> Startup);

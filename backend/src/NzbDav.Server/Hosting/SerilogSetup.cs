using NzbDav.Server.Configuration;
using Serilog;
using Serilog.Events;
using Serilog.Settings.Configuration;

namespace NzbDav.Server.Hosting;

/// <summary>The only place Serilog is configured; everything else logs through <c>ILogger&lt;T&gt;</c>.</summary>
public static class SerilogSetup
{
    private const string ConsoleTemplate = "[{Timestamp:HH:mm:ss} {Level:u3}] {SourceContext}: {Message:lj}{NewLine}{Exception}";
    private const string FileTemplate = "{Timestamp:yyyy-MM-dd HH:mm:ss.fff zzz} [{Level:u3}] {SourceContext}: {Message:lj}{NewLine}{Exception}";

    /// <summary>Console (and whatever the <c>Serilog</c> section adds) for the command-line tools.</summary>
    public static Serilog.ILogger CreateLogger(IConfiguration configuration) => CreateLogger(configuration, logFiles: null, ring: null, out _);

    /// <summary>
    /// The server's logger: the <c>Serilog</c> section, plus a daily, size-capped rolling file in
    /// <paramref name="logFiles"/> (the folder and its limits) when given. <paramref name="fileProblem"/>
    /// says why no file is written despite being asked for (the host logs it once it is built).
    /// With <paramref name="ring"/>, every event also goes to it (the web UI's Logs page).
    /// </summary>
    public static Serilog.ILogger CreateLogger(IConfiguration configuration, (string Directory, LogFileOptions Options)? logFiles, LogRing? ring, out string? fileProblem)
    {
        Serilog.ILogger logger;
        string? problem;
        Exception? error = null;
        try
        {
            // Name the sink assemblies so a trimmed or single-file build does not depend on scanning.
            var options = new ConfigurationReaderOptions(typeof(ConsoleLoggerConfigurationExtensions).Assembly);
            var config = new LoggerConfiguration().ReadFrom.Configuration(configuration, options);
            problem = AddFile(config, logFiles);
            if (ring is not null)
                config.WriteTo.Sink(ring);
            logger = config.CreateLogger();
        }
        catch (Exception ex) when (ex is InvalidOperationException or FormatException or ArgumentException)
        {
            // A broken "Serilog" section must not stop the server: log to the console and say why.
            var fallback = new LoggerConfiguration()
                .MinimumLevel.Information()
                .WriteTo.Console(outputTemplate: ConsoleTemplate);
            problem = AddFile(fallback, logFiles);
            if (ring is not null)
                fallback.WriteTo.Sink(ring);
            logger = fallback.CreateLogger();
            error = ex;
        }

        if (error is not null)
        {
            logger.Warning(error, "The Serilog configuration is invalid; using console logging at Information level");
        }
        fileProblem = problem;
        return logger;
    }

    /// <summary>
    /// One event per finished request (method, path without the query, so no API key, status,
    /// milliseconds), never one per body chunk. Scans (PROPFIND, HEAD, OPTIONS) and probes of
    /// <c>/health</c> and <c>/metrics</c> log at Debug: rclone and Plex send thousands of them. So do
    /// the web UI's own reads (its polls, the live feed, its scripts): an open dashboard and Logs page
    /// otherwise filled the log with themselves. Page loads, the UI's changes and every refusal stay.
    /// </summary>
    public static IApplicationBuilder UseRequestLogging(this IApplicationBuilder app, Serilog.ILogger logger) =>
        app.UseSerilogRequestLogging(options =>
        {
            // The host's own logger, not Serilog's static one (which nothing here sets).
            options.Logger = logger;
            options.MessageTemplate = "HTTP {RequestMethod} {RequestPath} responded {StatusCode} in {Elapsed:0.0} ms";
            options.GetLevel = RequestLevel;
        });

    internal static LogEventLevel RequestLevel(HttpContext context, double elapsedMs, Exception? exception)
    {
        if (exception is not null || context.Response.StatusCode >= StatusCodes.Status500InternalServerError)
        {
            return LogEventLevel.Error;
        }
        var request = context.Request;
        var quiet = request.Method.Equals("PROPFIND", StringComparison.OrdinalIgnoreCase) || HttpMethods.IsHead(request.Method) || HttpMethods.IsOptions(request.Method)
            || request.Path.StartsWithSegments("/health") || request.Path.StartsWithSegments("/metrics")
            || (HttpMethods.IsGet(request.Method) && (request.Path.StartsWithSegments("/ui/api") || request.Path.StartsWithSegments("/ui/assets")));
        return quiet && context.Response.StatusCode < StatusCodes.Status400BadRequest ? LogEventLevel.Debug : LogEventLevel.Information;
    }

    private static string? AddFile(LoggerConfiguration config, (string Directory, LogFileOptions Options)? logFiles)
    {
        if (logFiles is not var (directory, options) || !options.Enabled)
        {
            return null;
        }
        if (options.Validate() is { } invalid)
        {
            return invalid;
        }
        try
        {
            Directory.CreateDirectory(directory);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return $"the log folder '{directory}' cannot be created ({ex.Message})";
        }
        config.WriteTo.File(
            Path.Combine(directory, "nzbdav-.log"),
            outputTemplate: FileTemplate,
            rollingInterval: RollingInterval.Day,
            fileSizeLimitBytes: options.FileSizeLimitBytes,
            rollOnFileSizeLimit: true,
            retainedFileCountLimit: options.RetainedFileCount,
            retainedFileTimeLimit: TimeSpan.FromDays(options.RetainedDays));
        return null;
    }
}

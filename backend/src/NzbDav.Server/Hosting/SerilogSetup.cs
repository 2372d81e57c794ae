using Serilog;
using Serilog.Settings.Configuration;

namespace NzbDav.Server.Hosting;

/// <summary>The only place Serilog is configured; everything else logs through <c>ILogger&lt;T&gt;</c>.</summary>
internal static class SerilogSetup
{
    private const string ConsoleTemplate = "[{Timestamp:HH:mm:ss} {Level:u3}] {SourceContext}: {Message:lj}{NewLine}{Exception}";

    public static Serilog.ILogger CreateLogger(IConfiguration configuration)
    {
        try
        {
            // Name the sink assemblies so a trimmed or single-file build does not depend on scanning.
            var options = new ConfigurationReaderOptions(typeof(ConsoleLoggerConfigurationExtensions).Assembly);
            return new LoggerConfiguration()
                .ReadFrom.Configuration(configuration, options)
                .CreateLogger();
        }
        catch (Exception ex) when (ex is InvalidOperationException or FormatException or ArgumentException)
        {
            // A broken "Serilog" section must not stop the server: log to the console and say why.
            var fallback = new LoggerConfiguration()
                .MinimumLevel.Information()
                .WriteTo.Console(outputTemplate: ConsoleTemplate)
                .CreateLogger();
            fallback.Warning(ex, "The Serilog configuration is invalid; using console logging at Information level");
            return fallback;
        }
    }
}

using System.Diagnostics.CodeAnalysis;
using NzbDav.Server.Hosting;
using Serilog.Extensions.Logging;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// <c>NzbDav --test-webdav --mock-server …</c>: runs <see cref="WebDavBenchmark"/>, prints the
/// summary box (and with <c>--json</c> one JSON object as the last line), and returns 0 (every byte
/// right), 1 (the run failed) or 2 (bad arguments or configuration). Missed targets are reported,
/// not failures: they depend on the machine.
/// </summary>
public static class WebDavBenchmarkCommand
{
    private const string Name = "--test-webdav";

    /// <summary>Runs with the process console; Ctrl+C cancels the run.</summary>
    public static Task<int> RunConsoleAsync(IReadOnlyList<string> args) =>
        ConsoleCancellation.RunAsync(cancellationToken => RunAsync(args, Console.Out, Console.Error, cancellationToken));

    /// <summary>Runs the benchmark; the report goes to <paramref name="output"/>, errors to <paramref name="error"/>.</summary>
    public static async Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);
        WebDavBenchmarkOptions options;
        try
        {
            options = WebDavBenchmarkArguments.Parse(args);
        }
        catch (FullNzbTesterUsageException ex)
        {
            await error.WriteLineAsync($"{Name}: {ex.Message}");
            await error.WriteLineAsync(WebDavBenchmarkArguments.Usage);
            return 2;
        }

        if (options.Help)
        {
            await output.WriteLineAsync(WebDavBenchmarkArguments.Usage);
            return 0;
        }

        WebDavBenchmarkReport report;
        try
        {
            var configuration = TesterConfiguration.Build(options.Mock.ConfigurationArguments);
            // Disposed (flushed) before the report is printed, so the JSON really is the last line.
            using var loggerFactory = new SerilogLoggerFactory(SerilogSetup.CreateLogger(configuration), dispose: true);
            report = await RunLoggedAsync(options, loggerFactory, cancellationToken);
        }
        catch (FullNzbTesterUsageException ex)
        {
            await error.WriteLineAsync($"{Name}: {ex.Message}");
            return 2;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            await error.WriteLineAsync($"{Name}: cancelled.");
            return 1;
        }
        catch (TesterRunFailedException ex)
        {
            await error.WriteLineAsync($"{Name} failed: {ex.Message}");
            return 1;
        }

        WebDavBenchmarkSummary.Write(output, report);
        if (!report.Passed)
            await error.WriteLineAsync($"{Name}: FAILED: the bytes read were wrong or incomplete (see DATA VERIFICATION above).");
        if (options.Json)
            await output.WriteLineAsync(WebDavBenchmarkJson.Format(report));
        await output.FlushAsync(cancellationToken);
        return report.Passed ? 0 : 1;
    }

    [SuppressMessage("Performance", "CA1859:Use concrete types when possible for improved performance",
        Justification = "Called once per command; the runner needs only the logging abstraction, not Serilog.")]
    private static async Task<WebDavBenchmarkReport> RunLoggedAsync(WebDavBenchmarkOptions options, ILoggerFactory loggerFactory, CancellationToken cancellationToken)
    {
        var logger = loggerFactory.CreateLogger(typeof(WebDavBenchmarkCommand).FullName!);
        try
        {
            return await new WebDavBenchmark(options, loggerFactory).RunAsync(cancellationToken);
        }
        catch (Exception ex) when (!(ex is OperationCanceledException && cancellationToken.IsCancellationRequested))
        {
            // The full exception goes to the log; the console gets the reason in one line.
            logger.LogError(ex, "The WebDAV benchmark failed");
            throw TesterRunFailedException.From(ex);
        }
    }
}

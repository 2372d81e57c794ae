using System.Diagnostics.CodeAnalysis;
using NzbDav.Server.Hosting;
using NzbDav.Usenet.Providers;
using Serilog.Extensions.Logging;

namespace NzbDav.Tools.Testing;

/// <summary>
/// <c>NzbDav --test-full-nzb …</c>: runs <see cref="FullNzbTester"/> against the configured
/// providers or an in-process mock server, prints the summary box (and with <c>--json</c> one JSON
/// object as the last line), and returns 0 (passed), 1 (failed) or 2 (bad arguments or configuration).
/// </summary>
public static class FullNzbTesterCommand
{
    /// <summary>Runs with the process console; Ctrl+C or SIGTERM cancels the run.</summary>
    public static Task<int> RunConsoleAsync(IReadOnlyList<string> args) =>
        ConsoleCancellation.RunAsync(cancellationToken => RunAsync(args, Console.Out, Console.Error, cancellationToken));

    /// <summary>Runs the tester; the report goes to <paramref name="output"/>, errors to <paramref name="error"/>.</summary>
    public static async Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);
        FullNzbTesterOptions options;
        try
        {
            options = FullNzbTesterArguments.Parse(args);
        }
        catch (FullNzbTesterUsageException ex)
        {
            await error.WriteLineAsync($"--test-full-nzb: {ex.Message}");
            await error.WriteLineAsync(FullNzbTesterArguments.Usage);
            return 2;
        }

        if (options.Help)
        {
            await output.WriteLineAsync(FullNzbTesterArguments.Usage);
            return 0;
        }

        FullNzbTestReport report;
        try
        {
            var configuration = TesterConfiguration.Build(options.ConfigurationArguments);

            // The logger is disposed (flushed) before anything is printed, so with --json the JSON
            // object really is the last line of output.
            using var loggerFactory = new SerilogLoggerFactory(SerilogSetup.CreateLogger(configuration), dispose: true);
            report = await RunLoggedAsync(options, configuration, loggerFactory, cancellationToken);
        }
        catch (FullNzbTesterUsageException ex)
        {
            await error.WriteLineAsync($"--test-full-nzb: {ex.Message}");
            return 2;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            await error.WriteLineAsync("--test-full-nzb: cancelled.");
            return 1;
        }
        catch (TesterRunFailedException ex)
        {
            await error.WriteLineAsync($"--test-full-nzb failed: {ex.Message}");
            return 1;
        }

        FullNzbTestSummary.Write(output, report);
        if (!report.Passed)
        {
            await error.WriteLineAsync("--test-full-nzb: FAILED: the bytes read were wrong or incomplete (see DATA VERIFICATION above).");
        }

        if (options.Json)
        {
            await output.WriteLineAsync(FullNzbTestJson.Format(report));
        }

        await output.FlushAsync(cancellationToken);
        return report.Passed ? 0 : 1;
    }

    [SuppressMessage("Performance", "CA1859:Use concrete types when possible for improved performance",
        Justification = "Called once per command; the runner needs only the logging abstraction, not Serilog.")]
    private static async Task<FullNzbTestReport> RunLoggedAsync(
        FullNzbTesterOptions options, IConfiguration configuration, ILoggerFactory loggerFactory, CancellationToken cancellationToken)
    {
        var logger = loggerFactory.CreateLogger(typeof(FullNzbTesterCommand).FullName!);
        try
        {
            if (!options.MockServer)
            {
                var nzbPath = Path.GetFullPath(options.NzbPath!);
                if (!File.Exists(nzbPath))
                {
                    throw new FullNzbTesterUsageException($"NZB file '{nzbPath}' does not exist.");
                }

                var usenet = new UsenetOptions { Providers = TesterConfiguration.ReadProviders(configuration) };
                return await new FullNzbTester(usenet, loggerFactory, options.ScrapeMetricsMs, diskCacheRoot: options.DiskCacheRoot, diskCache: DiskCacheOptions(configuration)).RunAsync(nzbPath, _ => null, cancellationToken);
            }

            await using var mock = await MockBenchmarkServer.StartAsync(options, cancellationToken);
            logger.LogInformation("Mock NNTP server on 127.0.0.1:{Port}: {SizeMiB} MiB, latency {LatencyMs}±{JitterMs} ms, {Connections} connections, stall {Stall}",
                mock.Provider.Port, options.SizeMiB, options.LatencyMs, options.JitterMs, options.Connections, options.StallFraction);
            var report = await new FullNzbTester(new UsenetOptions { Providers = [mock.Provider] }, loggerFactory, options.ScrapeMetricsMs, mock.SweepIds, options.DiskCacheRoot, DiskCacheOptions(configuration))
                .RunAsync(mock.NzbPath, mock.ExpectedFor, cancellationToken);
            return report with { Mock = mock.Report() };
        }
        catch (Exception ex) when (ex is not FullNzbTesterUsageException && !(ex is OperationCanceledException && cancellationToken.IsCancellationRequested))
        {
            // The full exception goes to the log; the console gets the reason in one line.
            logger.LogError(ex, "The full NZB test failed");
            throw TesterRunFailedException.From(ex);
        }
    }

    /// <summary>The <c>Cache</c> section (<c>--Cache:Key=value</c>) for <c>--disk-cache</c>'s store; its folder comes from <c>--disk-cache</c>.</summary>
    private static NzbDav.Streaming.Disk.DiskSegmentStoreOptions DiskCacheOptions(IConfiguration configuration) =>
        configuration.GetSection(NzbDav.Streaming.Disk.DiskSegmentStoreOptions.SectionName).Get<NzbDav.Streaming.Disk.DiskSegmentStoreOptions>() ?? new();
}

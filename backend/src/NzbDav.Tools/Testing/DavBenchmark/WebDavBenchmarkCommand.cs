
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

    /// <summary>Runs with the process console; Ctrl+C or SIGTERM cancels the run.</summary>
    public static Task<int> RunConsoleAsync(IReadOnlyList<string> args) =>
        IsStreamsHeld(args) ? StreamsHeld.RunConsoleAsync(args) : Command.RunConsoleAsync(args);

    // --streams-held=MBps makes the run the streams-held search, with a report of its own.
    private static bool IsStreamsHeld(IReadOnlyList<string> args) =>
        args.Any(static a => a is not null && (a == "--streams-held" || a.StartsWith("--streams-held=", StringComparison.Ordinal)));

    private static readonly MeasurementCommand<WebDavBenchmarkOptions, StreamsHeldReport> StreamsHeld = new()
    {
        Name = Name,
        Usage = WebDavBenchmarkArguments.Usage,
        Parse = WebDavBenchmarkArguments.Parse,
        IsHelp = static options => options.Help,
        Configuration = static options => options.Mock.ConfigurationArguments,
        Run = static (options, loggers, cancellationToken) => new StreamsHeldRun(options, loggers).RunAsync(cancellationToken),
        FailureMessage = "The streams-held search failed",
        Report = static async (options, report, output, error, cancellationToken) =>
        {
            StreamsHeldOutput.WriteSummary(output, report);
            if (!report.Passed)
                await error.WriteLineAsync($"{Name}: FAILED: the bytes read were wrong (see DATA VERIFICATION above).");
            if (options.Json)
                await output.WriteLineAsync(StreamsHeldOutput.Json(report));
            await output.FlushAsync(cancellationToken);
            return report.Passed ? 0 : 1;
        },
    };

    private static readonly MeasurementCommand<WebDavBenchmarkOptions, WebDavBenchmarkReport> Command = new()
    {
        Name = Name,
        Usage = WebDavBenchmarkArguments.Usage,
        Parse = WebDavBenchmarkArguments.Parse,
        IsHelp = static options => options.Help,
        Configuration = static options => options.Mock.ConfigurationArguments,
        Run = static (options, loggers, cancellationToken) => new WebDavBenchmark(options, loggers).RunAsync(cancellationToken),
        FailureMessage = "The WebDAV benchmark failed",
        Report = static async (options, report, output, error, cancellationToken) =>
        {
            WebDavBenchmarkSummary.Write(output, report);
            if (!report.Passed)
                await error.WriteLineAsync($"{Name}: FAILED: the bytes read were wrong or incomplete (see DATA VERIFICATION above).");
            if (options.Json)
                await output.WriteLineAsync(WebDavBenchmarkJson.Format(report));
            await output.FlushAsync(cancellationToken);
            return report.Passed ? 0 : 1;
        },
    };

    /// <summary>Runs the benchmark; the report goes to <paramref name="output"/>, errors to <paramref name="error"/>.</summary>
    public static Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error, CancellationToken cancellationToken) =>
        IsStreamsHeld(args ?? throw new ArgumentNullException(nameof(args)))
            ? StreamsHeld.RunAsync(args, output, error, cancellationToken)
            : Command.RunAsync(args, output, error, cancellationToken);
}

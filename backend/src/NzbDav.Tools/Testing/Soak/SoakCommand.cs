namespace NzbDav.Tools.Testing.Soak;

/// <summary>
/// <c>NzbDav --test-soak --mock-server …</c>: runs <see cref="SoakRun"/>, prints the summary (and
/// with <c>--json</c> one JSON object as the last line), and returns 0 (every target met), 1 (a
/// target missed, or the run failed) or 2 (bad arguments).
/// </summary>
public static class SoakCommand
{
    private const string Name = "--test-soak";

    /// <summary>Runs with the process console; Ctrl+C or SIGTERM cancels the run.</summary>
    public static Task<int> RunConsoleAsync(IReadOnlyList<string> args) => Command.RunConsoleAsync(args);

    private static readonly MeasurementCommand<SoakOptions, SoakReport> Command = new()
    {
        Name = Name,
        Usage = SoakArguments.Usage,
        Parse = SoakArguments.Parse,
        IsHelp = static options => options.Help,
        Configuration = static options => options.ConfigurationArguments,
        Run = static (options, loggers, cancellationToken) => new SoakRun(options, loggers).RunAsync(cancellationToken),
        FailureMessage = "The fault soak failed",
        Report = static async (options, report, output, error, cancellationToken) =>
        {
            SoakSummary.Write(output, report);
            if (!report.Passed)
                await error.WriteLineAsync($"{Name}: FAILED: a target was missed (see the summary above).");
            if (options.Json)
                await output.WriteLineAsync(SoakJson.Format(report));
            await output.FlushAsync(cancellationToken);
            return report.Passed ? 0 : 1;
        },
    };

    /// <summary>Runs the soak; the report goes to <paramref name="output"/>, errors to <paramref name="error"/>.</summary>
    public static Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error, CancellationToken cancellationToken) =>
        Command.RunAsync(args, output, error, cancellationToken);
}

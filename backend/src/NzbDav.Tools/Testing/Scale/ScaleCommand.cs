namespace NzbDav.Tools.Testing.Scale;

/// <summary>
/// <c>NzbDav --test-scale …</c>: runs <see cref="ScaleRun"/>, prints the table (and with <c>--json</c>
/// one JSON object as the last line), and returns 0 (measured), 1 (the run failed) or 2 (bad arguments).
/// </summary>
public static class ScaleCommand
{
    private const string Name = "--test-scale";

    /// <summary>Runs with the process console; Ctrl+C or SIGTERM cancels the run (and stops the server).</summary>
    public static Task<int> RunConsoleAsync(IReadOnlyList<string> args) => Command.RunConsoleAsync(args);

    private static readonly MeasurementCommand<ScaleOptions, ScaleReport> Command = new()
    {
        Name = Name,
        Usage = ScaleArguments.Usage,
        Parse = ScaleArguments.Parse,
        IsHelp = static options => options.Help,
        Configuration = static options => options.ConfigurationArguments,
        Run = static (options, loggers, cancellationToken) =>
            new ScaleRun(options, loggers.CreateLogger(typeof(ScaleCommand).FullName!)).RunAsync(cancellationToken),
        FailureMessage = "The scale measurement failed",
        Report = static async (options, report, output, _, cancellationToken) =>
        {
            ScaleSummary.Write(output, report);
            if (options.Json)
                await output.WriteLineAsync(ScaleJson.Format(report));
            await output.FlushAsync(cancellationToken);
            return 0;
        },
    };

    /// <summary>Runs the measurement; the report goes to <paramref name="output"/>, errors to <paramref name="error"/>.</summary>
    public static Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error, CancellationToken cancellationToken) =>
        Command.RunAsync(args, output, error, cancellationToken);
}

namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>
/// <c>NzbDav --test-serve-cpu …</c>: runs <see cref="ServeCpuRun"/>, prints the summary box (and
/// with <c>--json</c> one JSON object as the last line), and returns 0 (measured), 1 (the run failed)
/// or 2 (bad arguments).
/// </summary>
public static class ServeCpuCommand
{
    private const string Name = "--test-serve-cpu";

    /// <summary>Runs with the process console; Ctrl+C or SIGTERM cancels the run (and stops the children).</summary>
    public static Task<int> RunConsoleAsync(IReadOnlyList<string> args) => Command.RunConsoleAsync(args);

    private static readonly MeasurementCommand<ServeCpuOptions, ServeCpuReport> Command = new()
    {
        Name = Name,
        Usage = ServeCpuArguments.Usage,
        Parse = ServeCpuArguments.Parse,
        IsHelp = static options => options.Help,
        Configuration = static options => options.ConfigurationArguments,
        Run = static (options, loggers, cancellationToken) =>
            new ServeCpuRun(options, loggers.CreateLogger(typeof(ServeCpuCommand).FullName!)).RunAsync(cancellationToken),
        FailureMessage = "The serve CPU measurement failed",
        Report = static async (options, report, output, _, cancellationToken) =>
        {
            ServeCpuSummary.Write(output, report);
            if (options.Json)
                await output.WriteLineAsync(ServeCpuJson.Format(report));
            await output.FlushAsync(cancellationToken);
            return 0;
        },
    };

    /// <summary>Runs the measurement; the report goes to <paramref name="output"/>, errors to <paramref name="error"/>.</summary>
    public static Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error, CancellationToken cancellationToken) =>
        Command.RunAsync(args, output, error, cancellationToken);
}

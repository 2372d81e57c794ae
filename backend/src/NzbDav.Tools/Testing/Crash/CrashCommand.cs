namespace NzbDav.Tools.Testing.Crash;

/// <summary>
/// <c>NzbDav --test-crash …</c>: runs <see cref="CrashRun"/>, prints the summary (and with
/// <c>--json</c> one JSON object as the last line), and returns 0 (nothing lost, duplicated or
/// broken), 1 (a check failed, or the run could not run) or 2 (bad arguments).
/// </summary>
public static class CrashCommand
{
    private static readonly MeasurementCommand<CrashOptions, CrashReport> Command = new()
    {
        Name = "--test-crash",
        Usage = CrashArguments.Usage,
        Parse = CrashArguments.Parse,
        IsHelp = static options => options.Help,
        Configuration = static options => options.ConfigurationArguments,
        Run = static async (options, loggers, cancellationToken) =>
        {
            using var run = new CrashRun(options, loggers.CreateLogger(typeof(CrashCommand).FullName!));
            return await run.RunAsync(cancellationToken);
        },
        FailureMessage = "The crash test could not run",
        Report = static async (options, report, output, _, cancellationToken) =>
        {
            CrashReport.WriteSummary(output, report);
            if (options.Json)
                await output.WriteLineAsync(CrashReport.Json(report));
            await output.FlushAsync(cancellationToken);
            return report.Passed ? 0 : 1;
        },
    };

    /// <summary>Runs with the process console; Ctrl+C or SIGTERM cancels the run (and stops the children).</summary>
    public static Task<int> RunConsoleAsync(IReadOnlyList<string> args) => Command.RunConsoleAsync(args);

    public static Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error, CancellationToken cancellationToken) =>
        Command.RunAsync(args, output, error, cancellationToken);
}

using System.Diagnostics.CodeAnalysis;
using NzbDav.Server.Hosting;
using Serilog.Extensions.Logging;

namespace NzbDav.Tools.Testing;

/// <summary>
/// What the measurement commands (<c>--test-webdav</c>, <c>--test-serve-cpu</c>) share: parse the
/// arguments (usage and exit 2 on a bad one, usage and exit 0 for <c>--help</c>), run with a Serilog
/// logger built from the <c>--Section:Key=value</c> overrides, turn a failure into one console line
/// and exit 1 (the whole exception goes to the log), then let the command print its report.
/// </summary>
/// <typeparam name="TOptions">The parsed arguments.</typeparam>
/// <typeparam name="TReport">What a run measured.</typeparam>
internal sealed class MeasurementCommand<TOptions, TReport>
{
    public required string Name { get; init; }

    public required string Usage { get; init; }

    /// <summary>Parses the arguments; throws <see cref="FullNzbTesterUsageException"/> for a bad one.</summary>
    public required Func<IReadOnlyList<string>, TOptions> Parse { get; init; }

    public required Func<TOptions, bool> IsHelp { get; init; }

    /// <summary>The <c>--Section:Key=value</c> overrides among the arguments.</summary>
    public required Func<TOptions, IReadOnlyList<string>> Configuration { get; init; }

    /// <summary>The run itself, logging through the factory it is given.</summary>
    public required Func<TOptions, ILoggerFactory, CancellationToken, Task<TReport>> Run { get; init; }

    /// <summary>Logged with the exception when the run fails.</summary>
    public required string FailureMessage { get; init; }

    /// <summary>Prints the report; returns the exit code.</summary>
    public required Func<TOptions, TReport, TextWriter, TextWriter, CancellationToken, Task<int>> Report { get; init; }

    /// <summary>Runs with the process console; Ctrl+C or SIGTERM cancels the run.</summary>
    public Task<int> RunConsoleAsync(IReadOnlyList<string> args) =>
        ConsoleCancellation.RunAsync(cancellationToken => RunAsync(args, Console.Out, Console.Error, cancellationToken));

    public async Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);
        TOptions options;
        try
        {
            options = Parse(args);
        }
        catch (FullNzbTesterUsageException ex)
        {
            await error.WriteLineAsync($"{Name}: {ex.Message}");
            await error.WriteLineAsync(Usage);
            return 2;
        }

        if (IsHelp(options))
        {
            await output.WriteLineAsync(Usage);
            return 0;
        }

        TReport report;
        try
        {
            var configuration = TesterConfiguration.Build(Configuration(options));
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

        return await Report(options, report, output, error, cancellationToken);
    }

    [SuppressMessage("Performance", "CA1859:Use concrete types when possible for improved performance",
        Justification = "Called once per command; the run needs only the logging abstraction, not Serilog.")]
    private async Task<TReport> RunLoggedAsync(TOptions options, ILoggerFactory loggerFactory, CancellationToken cancellationToken)
    {
        var logger = loggerFactory.CreateLogger(GetType().FullName!);
        try
        {
            return await Run(options, loggerFactory, cancellationToken);
        }
        catch (Exception ex) when (!(ex is OperationCanceledException && cancellationToken.IsCancellationRequested))
        {
            // The full exception goes to the log; the console gets the reason in one line.
            logger.LogError(ex, "{Failure}", FailureMessage);
            throw TesterRunFailedException.From(ex);
        }
    }
}

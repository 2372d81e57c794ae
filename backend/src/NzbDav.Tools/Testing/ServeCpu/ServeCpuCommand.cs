using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;
using NzbDav.Server.Hosting;
using Serilog.Extensions.Logging;

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
    public static Task<int> RunConsoleAsync(IReadOnlyList<string> args) =>
        ConsoleCancellation.RunAsync(async cancellationToken =>
        {
            // A SIGTERM (timeout, docker stop) would end the process without its finally blocks,
            // leaving the temporary folder behind: it cancels the run instead, as Ctrl+C does.
            using var terminated = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context =>
            {
                context.Cancel = true;
                terminated.Cancel();
            });
            return await RunAsync(args, Console.Out, Console.Error, terminated.Token);
        });

    /// <summary>Runs the measurement; the report goes to <paramref name="output"/>, errors to <paramref name="error"/>.</summary>
    public static async Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);
        ServeCpuOptions options;
        try
        {
            options = ServeCpuArguments.Parse(args);
        }
        catch (FullNzbTesterUsageException ex)
        {
            await error.WriteLineAsync($"{Name}: {ex.Message}");
            await error.WriteLineAsync(ServeCpuArguments.Usage);
            return 2;
        }

        if (options.Help)
        {
            await output.WriteLineAsync(ServeCpuArguments.Usage);
            return 0;
        }

        ServeCpuReport report;
        try
        {
            var configuration = TesterConfiguration.Build(options.ConfigurationArguments);
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

        ServeCpuSummary.Write(output, report);
        if (options.Json)
            await output.WriteLineAsync(ServeCpuJson.Format(report));
        await output.FlushAsync(cancellationToken);
        return 0;
    }

    [SuppressMessage("Performance", "CA1859:Use concrete types when possible for improved performance",
        Justification = "Called once per command; the run needs only the logging abstraction, not Serilog.")]
    private static async Task<ServeCpuReport> RunLoggedAsync(ServeCpuOptions options, ILoggerFactory loggerFactory, CancellationToken cancellationToken)
    {
        var logger = loggerFactory.CreateLogger(typeof(ServeCpuCommand).FullName!);
        try
        {
            return await new ServeCpuRun(options, logger).RunAsync(cancellationToken);
        }
        catch (Exception ex) when (!(ex is OperationCanceledException && cancellationToken.IsCancellationRequested))
        {
            // The full exception goes to the log; the console gets the reason in one line.
            logger.LogError(ex, "The serve CPU measurement failed");
            throw TesterRunFailedException.From(ex);
        }
    }
}

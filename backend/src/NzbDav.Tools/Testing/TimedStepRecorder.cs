using System.Diagnostics;

namespace NzbDav.Tools.Testing;

/// <summary>Times the tester's steps and logs each as it ends.</summary>
internal sealed class TimedStepRecorder(ILogger logger)
{
    private readonly List<TimedStep> _steps = [];

    public IReadOnlyList<TimedStep> Steps => _steps;

    public async Task<T> RunAsync<T>(string name, Func<Task<T>> step, Func<T, string> describe)
    {
        logger.LogInformation("Step {Step}: started", name);
        var started = Stopwatch.GetTimestamp();
        var result = await step().ConfigureAwait(false);
        var elapsed = Stopwatch.GetElapsedTime(started);
        var detail = describe(result);
        _steps.Add(new TimedStep(name, elapsed, detail));
        logger.LogInformation("Step {Step}: {ElapsedMs:F1} ms, {Detail}", name, elapsed.TotalMilliseconds, detail);
        return result;
    }
}

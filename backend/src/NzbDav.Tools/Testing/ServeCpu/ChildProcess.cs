using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;

namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>
/// A child of the measurement (the mock NNTP server or the NzbDav server), run by the dotnet host.
/// Its output is drained all the time, since a full pipe would stall it mid-measurement, and the last
/// lines are kept for error messages. Disposing stops it with SIGTERM, then kills its process tree.
/// </summary>
internal sealed class ChildProcess : IAsyncDisposable
{
    private const int KeptLines = 20;
    private const int SigTerm = 15;
    private const int SigKill = 9;
    private static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(10);
    private static readonly string[] ServerSections = ["Usenet", "NzbDav", "Mount", "Arr", "Health"];

    private readonly Process _process;
    private readonly string _name;
    private readonly ConcurrentQueue<string> _tail = new();
    private readonly TaskCompletionSource<string?> _ready = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Func<string, string?> _readyLine;
    private readonly Action<string>? _onLine;
    private ChildProcessGuard? _guard;

    private ChildProcess(Process process, string name, Func<string, string?> readyLine, Action<string>? onLine)
    {
        _process = process;
        _name = name;
        _readyLine = readyLine;
        _onLine = onLine;
    }

    public int Id => _process.Id;

    /// <summary>
    /// Starts <c>dotnet <paramref name="dll"/> <paramref name="arguments"/></c> and waits for the first
    /// output line <paramref name="readyLine"/> accepts; returns the child and what it made of that line.
    /// Every line of its output is also handed to <paramref name="onLine"/>, and its process id to
    /// <paramref name="onStarted"/> the moment it exists, when given.
    /// </summary>
    public static async Task<(ChildProcess Child, string Ready)> StartAsync(
        string name, string dll, IEnumerable<string> arguments, string workingDirectory, Func<string, string?> readyLine, TimeSpan deadline,
        CancellationToken cancellationToken, Action<string>? onLine = null, Action<int>? onStarted = null)
    {
        if (!File.Exists(dll))
            throw new FileNotFoundException($"{name}: {dll} is not there; is this a complete build output?", dll);
        var start = new ProcessStartInfo(DotnetHost())
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(dll);
        foreach (var argument in arguments)
            start.ArgumentList.Add(argument);
        // Only the given mock may serve the server and nothing else may run in it: a provider, a
        // mount or an *arr connection set in this process's environment would otherwise be inherited.
        foreach (var key in start.Environment.Keys.Where(IsInheritedSetting).ToList())
            start.Environment.Remove(key);

        var process = new Process { StartInfo = start, EnableRaisingEvents = true };
        var child = new ChildProcess(process, name, readyLine, onLine);
        process.OutputDataReceived += (_, e) => child.Collect(e.Data);
        process.ErrorDataReceived += (_, e) => child.Collect(e.Data);
        process.Exited += (_, _) => child._ready.TrySetResult(null);
        if (!process.Start())
            throw new InvalidOperationException($"{name} did not start.");
        child._guard = new ChildProcessGuard(process);
        onStarted?.Invoke(process.Id);
        try
        {
            process.BeginOutputReadLine();
            process.BeginErrorReadLine();
            if (await child._ready.Task.WaitAsync(deadline, cancellationToken) is { } ready)
                return (child, ready);
            // Waiting for the exit also waits for the end of its output, so the tail is complete.
            await process.WaitForExitAsync(cancellationToken);
            throw new InvalidOperationException($"{name} exited with code {process.ExitCode} before it was ready.{child.Tail()}");
        }
        catch (TimeoutException ex)
        {
            await child.DisposeAfterFailureAsync();
            throw new TimeoutException($"{name} was not ready within {deadline.TotalSeconds:0} s.{child.Tail()}", ex);
        }
        catch
        {
            await child.DisposeAfterFailureAsync();
            throw;
        }
    }

    /// <summary>User plus system CPU time of the process so far (Linux: utime + stime of /proc/&lt;pid&gt;/stat).</summary>
    public TimeSpan CpuTime()
    {
        _process.Refresh();
        return _process.TotalProcessorTime;
    }

    /// <summary>
    /// Context switches of the process's live threads so far (Linux: voluntary and involuntary, summed
    /// over /proc/&lt;pid&gt;/task/*/status); null where that is not readable. A thread that has exited
    /// takes its count with it, which the thread pool's long-lived workers make rare.
    /// </summary>
    public long? ContextSwitches()
    {
        var tasks = $"/proc/{_process.Id}/task";
        if (!Directory.Exists(tasks))
            return null;
        long total = 0;
        foreach (var task in Directory.EnumerateDirectories(tasks))
        {
            try
            {
                foreach (var line in File.ReadLines(Path.Combine(task, "status")))
                {
                    if (line.StartsWith("voluntary_ctxt_switches:", StringComparison.Ordinal) || line.StartsWith("nonvoluntary_ctxt_switches:", StringComparison.Ordinal))
                        total += long.Parse(line[(line.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim(), CultureInfo.InvariantCulture);
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // The thread exited while being read.
            }
        }

        return total;
    }

    /// <summary>The process's highest resident set size so far: the kernel's VmHWM, else the peak working set.</summary>
    public long PeakRssBytes()
    {
        var status = $"/proc/{_process.Id}/status";
        if (File.Exists(status))
        {
            foreach (var line in File.ReadLines(status))
            {
                if (line.StartsWith("VmHWM:", StringComparison.Ordinal))
                    return long.Parse(line["VmHWM:".Length..].Trim().Split(' ')[0], CultureInfo.InvariantCulture) * 1024;
            }
        }

        _process.Refresh();
        return _process.PeakWorkingSet64;
    }

    /// <summary>The process's resident set size now: the kernel's VmRSS, else the working set.</summary>
    public long RssBytes()
    {
        var status = $"/proc/{_process.Id}/status";
        if (File.Exists(status))
        {
            foreach (var line in File.ReadLines(status))
            {
                if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
                    return long.Parse(line["VmRSS:".Length..].Trim().Split(' ')[0], CultureInfo.InvariantCulture) * 1024;
            }
        }

        _process.Refresh();
        return _process.WorkingSet64;
    }

    /// <summary>Kills the process tree at once (the run failed; nothing of it is worth a clean stop).</summary>
    public async Task KillAsync(CancellationToken cancellationToken)
    {
        try
        {
            _process.Kill(entireProcessTree: true);
        }
        catch (InvalidOperationException)
        {
            // It had already exited.
        }

        await _process.WaitForExitAsync(cancellationToken);
    }

    /// <summary>
    /// SIGKILL to this process alone, as the kernel's OOM killer or a power cut would end it: its own
    /// children (the managed mount's rclone) are left as orphans, which is what a crash leaves.
    /// </summary>
    public async Task KillAloneAsync(CancellationToken cancellationToken)
    {
        if (!_process.HasExited && !OperatingSystem.IsWindows())
            _ = Kill(_process.Id, SigKill);
        await _process.WaitForExitAsync(cancellationToken);
    }

    /// <summary>Whether the process has ended.</summary>
    public bool HasExited => _process.HasExited;

    /// <summary>Kills the process tree, then lets go of it.</summary>
    public async ValueTask DisposeAfterFailureAsync()
    {
        await KillAsync(CancellationToken.None);
        await DisposeAsync();
    }

    /// <summary>SIGTERM, as a container stop sends, so it shuts down cleanly; killed if it takes longer than the grace.</summary>
    public async ValueTask DisposeAsync()
    {
        _guard?.Dispose();
        try
        {
            if (!_process.HasExited && !OperatingSystem.IsWindows() && Kill(_process.Id, SigTerm) == 0)
            {
                using var grace = new CancellationTokenSource(StopGrace);
                try
                {
                    await _process.WaitForExitAsync(grace.Token);
                }
                catch (OperationCanceledException)
                {
                    // Past the grace: killed below.
                }
            }

            if (!_process.HasExited)
                await KillAsync(CancellationToken.None);
        }
        finally
        {
            _process.Dispose();
        }
    }

    /// <summary>The last lines the process printed, for an error message.</summary>
    public string Tail() => _tail.IsEmpty ? "" : $"{Environment.NewLine}Last output of {_name}:{Environment.NewLine}{string.Join(Environment.NewLine, _tail)}";

    private static bool IsInheritedSetting(string key) =>
        ServerSections.Any(section =>
            key.StartsWith(section + "__", StringComparison.OrdinalIgnoreCase) || key.StartsWith(section + ":", StringComparison.OrdinalIgnoreCase));

    private static string DotnetHost()
    {
        // Under `dotnet NzbDav.dll` (the Docker image, the docs) the host runs this process; the SDK
        // names its own under `dotnet test`; otherwise the one on PATH.
        var self = Environment.ProcessPath;
        return self is not null && Path.GetFileNameWithoutExtension(self) == "dotnet"
            ? self
            : Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";
    }

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int Kill(int pid, int signal);

    private void Collect(string? line)
    {
        if (line is null)
            return;
        _onLine?.Invoke(line);
        _tail.Enqueue(line);
        while (_tail.Count > KeptLines)
            _tail.TryDequeue(out _);
        if (!_ready.Task.IsCompleted && _readyLine(line) is { } ready)
            _ready.TrySetResult(ready);
    }
}

using System.Diagnostics;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Options;
using NzbDav.Server.Auth;
using NzbDav.Server.Configuration;
using NzbDav.Server.WebDav;

namespace NzbDav.Server.Mount;

/// <summary>
/// Runs <c>rclone mount</c> of NzbDav's own WebDAV tree at <c>NzbDav:MountPath</c> when
/// <c>Mount:Enabled</c>, and keeps it up: restarts with a doubling wait (1 s up to
/// <see cref="MountOptions.MaxRestartDelay"/>) when rclone dies, unmounts on shutdown and clears a
/// stale mount an earlier crash left, refuses to hide a non-empty directory, and restarts with new
/// flags when the settings change. rclone reaches the tree with an account only this process knows
/// (in a 0600 config file, never on the command line); its remote control listens on loopback with
/// credentials passed through the environment. After a job enters or leaves the library the
/// changed folders are refreshed through the remote control, so Sonarr sees a new job at once.
/// </summary>
public sealed partial class RcloneMountService(
    IOptionsMonitor<MountOptions> options,
    IOptionsMonitor<NzbDavOptions> nzbdav,
    WebDavCredentials credentials,
    IServer server,
    IHostApplicationLifetime lifetime,
    LibraryChanges changes,
    MountState state,
    MountMetrics metrics,
    TimeProvider time,
    ILogger<RcloneMountService> logger) : BackgroundService
{
    internal const string RemoteName = "nzbdav";
    internal const string MountUser = "nzbdav-mount";

    private static readonly TimeSpan StatsInterval = TimeSpan.FromSeconds(15);
    private static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(10);

    private readonly SemaphoreSlim _changed = new(0, 1);
    private RcloneRemoteControl? _control;

    public override void Dispose()
    {
        _changed.Dispose();
        base.Dispose();
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        // rclone needs the address Kestrel listens on, known only once the server has started.
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using (lifetime.ApplicationStarted.Register(() => started.TrySetResult()))
        using (stoppingToken.Register(() => started.TrySetCanceled(stoppingToken)))
        {
            try
            {
                await started.Task;
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }

        using var onMount = options.OnChange(_ => Signal());
        using var onPath = nzbdav.OnChange(_ => Signal());
        await Task.WhenAll(SuperviseAsync(stoppingToken), RefreshLoopAsync(stoppingToken));
    }

    private void Signal()
    {
        try
        {
            if (_changed.CurrentCount == 0)
                _changed.Release();
        }
        catch (SemaphoreFullException)
        {
            // Already signalled: one wake-up covers every change.
        }
    }

    private async Task SuperviseAsync(CancellationToken stoppingToken)
    {
        var failures = 0;
        while (!stoppingToken.IsCancellationRequested)
        {
            var settings = options.CurrentValue;
            var path = nzbdav.CurrentValue.MountPath;
            if (!settings.Enabled)
            {
                state.Enter(MountPhase.Off, path);
                failures = 0;
                if (!await WaitForChangeAsync(Timeout.InfiniteTimeSpan, stoppingToken))
                    return;
                continue;
            }

            state.Enter(MountPhase.Starting, path);
            string? error;
            try
            {
                var plan = await PrepareAsync(settings, path, stoppingToken);
                error = plan.Error ?? await RunAsync(plan.Run!, stoppingToken);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or InvalidOperationException or System.ComponentModel.Win32Exception or TimeoutException)
            {
                error = ex.Message;
            }

            if (stoppingToken.IsCancellationRequested)
                return;
            if (error is null)
            {
                // Stopped for new settings: start again at once.
                failures = 0;
                continue;
            }

            failures++;
            state.Fail(path, error);
            state.Update(static s => s with { Restarts = s.Restarts + 1 });
            var delay = RestartDelay(failures, settings.MaxRestartDelay);
            LogMountFailed(path, error, delay.TotalSeconds);
            if (!await WaitForChangeAsync(delay, stoppingToken))
                return;
        }
    }

    /// <summary>1 s, 2 s, 4 s … up to the maximum: a mount that cannot start does not spin.</summary>
    internal static TimeSpan RestartDelay(int failures, TimeSpan maximum)
    {
        var seconds = Math.Pow(2, Math.Min(failures - 1, 20));
        return TimeSpan.FromSeconds(Math.Min(seconds, maximum.TotalSeconds));
    }

    /// <summary>Waits <paramref name="delay"/> (on <c>time</c>; infinite: no limit) or until the settings change; false when stopping.</summary>
    private async Task<bool> WaitForChangeAsync(TimeSpan delay, CancellationToken stoppingToken)
    {
        using var timeout = new CancellationTokenSource(delay, time);
        using var woken = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken, timeout.Token);
        try
        {
            await _changed.WaitAsync(woken.Token);
        }
        catch (OperationCanceledException) when (!stoppingToken.IsCancellationRequested)
        {
            // The delay passed with no change: time to try again.
        }
        catch (OperationCanceledException)
        {
            return false;
        }
        return true;
    }

    /// <summary>One mount: start rclone, wait until the kernel shows the mount, keep it until rclone exits (the error), the settings change or the host stops (null).</summary>
    private async Task<string?> RunAsync(MountRun run, CancellationToken stoppingToken)
    {
        var start = new ProcessStartInfo(run.Rclone)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var argument in run.Arguments)
            start.ArgumentList.Add(argument);
        // Flags from the environment never show in the process list.
        start.Environment["RCLONE_RC_USER"] = run.ControlUser;
        start.Environment["RCLONE_RC_PASS"] = run.ControlPassword;
        using var rclone = Process.Start(start) ?? throw new InvalidOperationException($"{run.Rclone} did not start.");
        // Should this process be killed outright, the next start finds this rclone and stops it.
        if (RclonePidFile.Write(run.PidFile, rclone.Id, run.Path) is { } unrecorded)
            LogPidNotRecorded(run.PidFile, unrecorded);
        var tail = new RcloneLog(logger);
        var stderr = tail.ReadAsync(rclone.StandardError, CancellationToken.None);
        var stdout = tail.ReadAsync(rclone.StandardOutput, CancellationToken.None);
        using var control = new RcloneRemoteControl(run.ControlPort, run.ControlUser, run.ControlPassword);
        try
        {
            var mounted = await WaitMountedAsync(rclone, run, tail, Task.WhenAll(stderr, stdout), time, stoppingToken);
            if (mounted is not null)
                return mounted;

            Volatile.Write(ref _control, control);
            state.Update(s => s with { RcloneVersion = run.Version, Links = run.Links });
            state.Enter(MountPhase.Mounted, run.Path);
            LogMounted(run.Url, run.Path, run.Version ?? "?", run.Links);
            var exited = rclone.WaitForExitAsync(CancellationToken.None);
            // One pending wait at a time: a second one would swallow the next signal.
            var changed = _changed.WaitAsync(stoppingToken);
            while (true)
            {
                var tick = Task.Delay(StatsInterval, time, stoppingToken);
                var woke = await Task.WhenAny(exited, changed, tick);
                if (woke == exited)
                {
                    await Task.WhenAll(stderr, stdout);
                    await MountPoints.UnmountAsync(run.Path, lazy: true, CancellationToken.None);
                    return $"rclone exited with code {rclone.ExitCode}{tail.Describe()}";
                }

                if (stoppingToken.IsCancellationRequested)
                    return null;
                if (woke == changed)
                {
                    await changed;
                    if (Fingerprint(options.CurrentValue, nzbdav.CurrentValue.MountPath) != run.Fingerprint)
                    {
                        LogRestartForSettings(run.Path);
                        return null;
                    }

                    changed = _changed.WaitAsync(stoppingToken);
                    continue;
                }

                await UpdateCacheAsync(control, stoppingToken);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            return null;
        }
        finally
        {
            Volatile.Write(ref _control, null);
            if (!rclone.HasExited)
                await StopAsync(rclone, run.Path);
            RclonePidFile.Delete(run.PidFile);
        }
    }

    /// <summary>Null once the kernel lists the FUSE mount; else why it did not come up (rclone exited, or the time ran out).</summary>
    private static async Task<string?> WaitMountedAsync(Process rclone, MountRun run, RcloneLog tail, Task logs, TimeProvider time, CancellationToken stoppingToken)
    {
        var started = time.GetTimestamp();
        while (MountPoints.MountedType(run.Path) is not { } type || !type.StartsWith("fuse", StringComparison.Ordinal))
        {
            if (rclone.HasExited)
            {
                await rclone.WaitForExitAsync(stoppingToken);
                await logs.WaitAsync(TimeSpan.FromSeconds(5), stoppingToken);
                return $"rclone could not mount {run.Path} (exit code {rclone.ExitCode}){tail.Describe()}";
            }

            if (time.GetElapsedTime(started) > run.Timeout)
                return $"rclone did not mount {run.Path} within {run.Timeout.TotalSeconds:0} s";
            // Pacing the look at the kernel's mount table, not a deadline: real time.
            await Task.Delay(50, stoppingToken);
        }
        return null;
    }

    private async Task UpdateCacheAsync(RcloneRemoteControl control, CancellationToken stoppingToken)
    {
        try
        {
            var bytes = await control.CacheBytesAsync(stoppingToken);
            state.Update(s => s with { CacheBytes = bytes });
        }
        catch (Exception ex) when (ex is HttpRequestException or TaskCanceledException or System.Text.Json.JsonException)
        {
            LogStatsFailed(ex.Message);
        }
    }

    /// <summary>Unmounting makes rclone exit by itself with its cache in order; a kill is the last resort.</summary>
    private async Task StopAsync(Process rclone, string path)
    {
        state.Enter(MountPhase.Stopping, path);
        var error = await MountPoints.UnmountAsync(path, lazy: false, CancellationToken.None);
        if (error is not null)
        {
            // Something still has a file open (a player): detach now, rclone finishes when it closes.
            LogUnmountBusy(path, error);
            await MountPoints.UnmountAsync(path, lazy: true, CancellationToken.None);
        }

        using var grace = new CancellationTokenSource(StopGrace, time);
        try
        {
            await rclone.WaitForExitAsync(grace.Token);
        }
        catch (OperationCanceledException)
        {
            rclone.Kill(entireProcessTree: true);
            await rclone.WaitForExitAsync(CancellationToken.None);
            await MountPoints.UnmountAsync(path, lazy: true, CancellationToken.None);
        }
        LogUnmounted(path);
    }

    /// <summary>Refreshes the folders jobs were added to or removed from, a batch at a time.</summary>
    private async Task RefreshLoopAsync(CancellationToken stoppingToken)
    {
        var reader = changes.Reader;
        try
        {
            while (await reader.WaitToReadAsync(stoppingToken))
            {
                var categories = new HashSet<string>(StringComparer.Ordinal);
                while (reader.TryRead(out var category))
                    categories.Add(DavTree.CategoryFolder(category));
                if (Volatile.Read(ref _control) is not { } control)
                    continue;
                try
                {
                    // The tops (a new category appears in them), the category folders, and .ids, where
                    // the /completed symlinks point: the next look into any of them asks NzbDav again.
                    await control.ForgetAsync([DavTree.Content, DavTree.Completed, DavTree.Ids,
                        .. categories.SelectMany(static c => new[] { DavTree.Content + "/" + c, DavTree.Completed + "/" + c })], stoppingToken);
                    metrics.Refreshed(ok: true);
                    LogRefreshed(string.Join(", ", categories));
                }
                catch (Exception ex) when (!stoppingToken.IsCancellationRequested)
                {
                    metrics.Refreshed(ok: false);
                    LogRefreshFailed(string.Join(", ", categories), ex.Message);
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Shutting down.
        }
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Mounted {Url} at {Path} with rclone {Version} (symlinks {Links})")]
    private partial void LogMounted(Uri url, string path, string version, bool links);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The rclone mount at {Path} failed: {Error}; trying again in {Seconds} s")]
    private partial void LogMountFailed(string path, string error, double seconds);

    [LoggerMessage(Level = LogLevel.Warning, Message = "rclone's pid could not be recorded in {File} ({Error}): after a crash the next start cannot stop it")]
    private partial void LogPidNotRecorded(string file, string error);

    [LoggerMessage(Level = LogLevel.Information, Message = "The mount settings changed: remounting {Path}")]
    private partial void LogRestartForSettings(string path);

    [LoggerMessage(Level = LogLevel.Information, Message = "Unmounted {Path}")]
    private partial void LogUnmounted(string path);

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Path} is busy ({Error}); detaching it lazily")]
    private partial void LogUnmountBusy(string path, string error);

    [LoggerMessage(Level = LogLevel.Debug, Message = "rclone forgot the folders of {Categories}")]
    private partial void LogRefreshed(string categories);

    [LoggerMessage(Level = LogLevel.Debug, Message = "rclone's VFS statistics could not be read: {Error}")]
    private partial void LogStatsFailed(string error);

    [LoggerMessage(Level = LogLevel.Warning, Message = "rclone could not refresh the folders of {Categories}: {Error}; they show the change when its directory cache expires")]
    private partial void LogRefreshFailed(string categories, string error);

    /// <summary>The address rclone reaches NzbDav at: a loopback form of the first address Kestrel listens on, preferring plain HTTP.</summary>
    private Uri? LocalUrl()
    {
        var addresses = server.Features.Get<IServerAddressesFeature>()?.Addresses ?? [];
        var parsed = addresses.Select(static a => Uri.TryCreate(a.Replace("://+", "://0.0.0.0", StringComparison.Ordinal).Replace("://*", "://0.0.0.0", StringComparison.Ordinal), UriKind.Absolute, out var uri) ? uri : null)
            .OfType<Uri>().OrderBy(static u => u.Scheme == Uri.UriSchemeHttp ? 0 : 1).FirstOrDefault();
        if (parsed is null)
            return null;
        var host = parsed.Host is "0.0.0.0" or "[::]" or "::" ? "127.0.0.1" : parsed.Host;
        return new UriBuilder(parsed.Scheme, host, parsed.Port, "/").Uri;
    }
}

using System.Diagnostics;
using System.Globalization;
using NzbDav.Server.Mount;

namespace NzbDav.Tools.Testing.Crash;

// The managed mount across kills: the mount back and readable after each restart, orphaned rclone processes found and cleaned up.
internal sealed partial class CrashRun
{
    private async Task CheckMountAsync(int cycle, CrashClient client, string mountPath, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        string? state = null;
        while (Stopwatch.GetElapsedTime(started) < MountDeadline)
        {
            if (await client.HealthAsync(cancellationToken) is { } health && health.TryGetProperty("mount", out var mount)
                && (state = mount.GetProperty("state").GetString()) == "mounted")
            {
                break;
            }

            await Task.Delay(100, cancellationToken);
        }

        if (state != "mounted")
        {
            await ReleaseHeldAsync();
            _mountFailures.Add($"restart {cycle}: the mount is '{state}' {MountDeadline.TotalSeconds:0} s after the start");
            return;
        }

        // Through the kernel, with a deadline: a dead FUSE mount can hang a reader.
        var look = Task.Run(() => LookThroughMount(mountPath), cancellationToken);
        if (await Task.WhenAny(look, Task.Delay(FileSystemDeadline, cancellationToken)) != look)
            _mountFailures.Add($"restart {cycle}: reading {mountPath} hung for {FileSystemDeadline.TotalSeconds:0} s");
        else if (await look is { } error)
            _mountFailures.Add($"restart {cycle}: {error}");

        try
        {
            await CheckOrphansAsync(cycle, mountPath, cancellationToken);
        }
        finally
        {
            // The player lets go only now: whatever the orphan was going to do, it had to do it while held.
            await ReleaseHeldAsync();
        }
    }

    private async Task ReleaseHeldAsync()
    {
        foreach (var stream in _heldOpen)
        {
            try
            {
                await stream.DisposeAsync();
            }
            catch (IOException)
            {
                // Its mount's rclone is gone: the close fails, the handle is released all the same.
            }
        }

        _heldOpen.Clear();
    }

    private async Task CheckOrphansAsync(int cycle, string mountPath, CancellationToken cancellationToken)
    {
        foreach (var pid in _orphans.ToList())
        {
            var waited = Stopwatch.GetTimestamp();
            while (IsRcloneOf(pid, mountPath) && Stopwatch.GetElapsedTime(waited) < FileSystemDeadline)
                await Task.Delay(100, cancellationToken);
            if (IsRcloneOf(pid, mountPath))
                _mountFailures.Add($"restart {cycle}: the rclone (pid {pid}) the killed server left is still running");
            else
                _orphans.Remove(pid);
        }
    }

    /// <summary>Null when the mount's folders list and a library file (if any) can be read; else what failed.</summary>
    private static string? LookThroughMount(string mountPath)
    {
        try
        {
            var category = Path.Combine(mountPath, "content", "tv");
            if (!Directory.Exists(Path.Combine(mountPath, "content")))
                return $"{mountPath}/content is not there";
            if (!Directory.Exists(category))
                return null;
            var file = Directory.EnumerateDirectories(category).SelectMany(Directory.EnumerateFiles).FirstOrDefault();
            if (file is null)
                return null;
            using var stream = File.OpenRead(file);
            var buffer = new byte[4096];
            return stream.Read(buffer) > 0 ? null : $"{file} read no bytes through the mount";
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return $"reading through {mountPath} failed: {ex.Message}";
        }
    }

    /// <summary>The rclone processes mounting <paramref name="mountPath"/>.</summary>
    internal static List<int> RclonePids(string mountPath)
    {
        var pids = new List<int>();
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && IsRcloneOf(pid, mountPath))
                pids.Add(pid);
        }

        return pids;
    }

    private static bool IsRcloneOf(int pid, string mountPath)
    {
        try
        {
            var arguments = File.ReadAllText($"/proc/{pid}/cmdline").Split('\0');
            // A zombie (killed, not yet reaped by anyone) has an empty command line: it is gone.
            return arguments.Length > 1 && Path.GetFileName(arguments[0]) == "rclone" && arguments.Contains("mount", StringComparer.Ordinal)
                && arguments.Contains(mountPath, StringComparer.Ordinal);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>Whatever a failed check left: rclone processes of this run's mount are killed and the mount detached.</summary>
    private static async Task CleanUpMountAsync(string mountPath)
    {
        foreach (var pid in RclonePids(mountPath))
            _ = Kill(pid, SigKill);
        if (MountPoints.MountedType(mountPath) is not null)
            await MountPoints.UnmountAsync(mountPath, lazy: true, CancellationToken.None);
    }
}

using System.Diagnostics;

namespace NzbDav.Server.Tests.RealClients;

/// <summary>
/// <c>rclone mount</c> of a remote in the background, or the reason it cannot run here (no
/// <c>/dev/fuse</c>, no fusermount, or the mount itself refused, as in unprivileged containers).
/// Disposing unmounts and stops rclone.
/// </summary>
internal sealed class RcloneMount : IAsyncDisposable
{
    private static readonly TimeSpan MountDeadline = TimeSpan.FromSeconds(30);

    private readonly Process _rclone;
    private readonly string _fusermount;

    private RcloneMount(Process rclone, string fusermount, string path)
    {
        _rclone = rclone;
        _fusermount = fusermount;
        Path = path;
    }

    public string Path { get; }

    /// <summary>Why FUSE cannot be used on this machine, or null when it looks usable.</summary>
    public static string? Unusable(out string fusermount)
    {
        fusermount = new[] { "fusermount3", "fusermount" }.FirstOrDefault(OnPath) ?? "";
        if (!File.Exists("/dev/fuse"))
            return "/dev/fuse does not exist (a container needs --device /dev/fuse and CAP_SYS_ADMIN)";
        if (fusermount.Length == 0)
            return "neither fusermount3 nor fusermount is installed (apt-get install -y fuse3)";
        return OnPath("rclone") ? null : "rclone is not installed (apt-get install -y rclone)";
    }

    /// <summary>
    /// Mounts <paramref name="remote"/> at <paramref name="path"/> and waits until <paramref name="expected"/>
    /// (relative) is visible. Null and rclone's reason when rclone exits (FUSE refused the mount); a
    /// mount that stays up without showing the file fails the test, since that is the server's fault.
    /// </summary>
    public static async Task<(RcloneMount? Mount, string? Reason)> StartAsync(
        string fusermount, string config, string remote, string path, string expected, IReadOnlyList<string> flags, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(path);
        var start = new ProcessStartInfo("rclone", ["--config", config, "mount", remote, path, .. flags])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        var rclone = Process.Start(start)!;
        var errors = rclone.StandardError.ReadToEndAsync(cancellationToken);
        _ = rclone.StandardOutput.ReadToEndAsync(cancellationToken);
        var mount = new RcloneMount(rclone, fusermount, path);
        var started = Stopwatch.GetTimestamp();
        while (!File.Exists(System.IO.Path.Combine(path, expected)))
        {
            if (rclone.HasExited)
            {
                await mount.DisposeAsync();
                return (null, $"rclone mount exited with {rclone.ExitCode}: {(await errors).Trim()}");
            }

            if (Stopwatch.GetElapsedTime(started) > MountDeadline)
            {
                await mount.DisposeAsync();
                Assert.Fail($"rclone mounted {remote} but {expected} did not appear under it within {MountDeadline.TotalSeconds} s.");
            }

            await Task.Delay(100, cancellationToken);
        }

        return (mount, null);
    }

    public async ValueTask DisposeAsync()
    {
        using (_rclone)
        {
            if (!_rclone.HasExited)
            {
                // Unmounting makes rclone exit by itself; killing it first would leave a dead mount point.
                using (var unmount = Process.Start(new ProcessStartInfo(_fusermount, ["-u", Path]) { RedirectStandardError = true })!)
                    await unmount.WaitForExitAsync(CancellationToken.None);
                using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(10));
                try
                {
                    await _rclone.WaitForExitAsync(deadline.Token);
                }
                catch (OperationCanceledException)
                {
                    _rclone.Kill(entireProcessTree: true);
                }
            }
        }
    }

    private static bool OnPath(string tool) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries)
            .Any(directory => File.Exists(System.IO.Path.Combine(directory, tool)));
}

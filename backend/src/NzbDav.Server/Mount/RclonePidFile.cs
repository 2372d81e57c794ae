using System.Globalization;
using System.Runtime.InteropServices;

namespace NzbDav.Server.Mount;

/// <summary>
/// The rclone this server runs, recorded in <c>&lt;DataDirectory&gt;/rclone/rclone.pid</c> (its pid, the
/// kernel's start time of that pid, and the mount path) while it runs. A server killed outright
/// (kill -9, the OOM killer) leaves its rclone running, still holding the old mount — for as long as
/// a player keeps a file open there — and the VFS cache, and serving nothing (it knew the old
/// process's address and password). The next start finds it through this file and stops it. The
/// start time makes sure a pid the kernel has since given to another process is never signalled.
/// </summary>
internal static class RclonePidFile
{
    public const string FileName = "rclone.pid";
    private const int SigTerm = 15;
    private const int SigKill = 9;
    private static readonly TimeSpan TermGrace = TimeSpan.FromSeconds(3);
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(50);

    public static string PathIn(string dataDirectory) => Path.Combine(Path.GetFullPath(dataDirectory), "rclone", FileName);

    /// <summary>
    /// Records <paramref name="pid"/>; written to a temporary file and renamed, so a kill mid-write
    /// leaves the old record or the new, never half of one. Best effort: a record that cannot be
    /// written only costs the clean-up after a crash; null, or why not.
    /// </summary>
    public static string? Write(string file, int pid, string mountPath)
    {
        var start = StartTime(pid);
        if (start is null)
            return $"/proc/{pid}/stat could not be read";
        try
        {
            Directory.CreateDirectory(Path.GetDirectoryName(file)!);
            var temporary = file + ".tmp";
            File.WriteAllText(temporary, string.Join('\n', pid.ToString(CultureInfo.InvariantCulture), start, mountPath) + "\n");
            File.Move(temporary, file, overwrite: true);
            return null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return ex.Message;
        }
    }

    public static void Delete(string file)
    {
        try
        {
            File.Delete(file);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Checked again at the next start, where the identity check finds the pid gone or reused.
        }
    }

    /// <summary>
    /// Stops the rclone the record names if it is still that very process (same start time, an
    /// rclone mount of the recorded path): SIGTERM, then SIGKILL after a short grace (on
    /// <paramref name="time"/>). Answers its pid when one was stopped; the record is removed either way.
    /// </summary>
    public static async Task<int?> StopOrphanAsync(string file, TimeProvider time, CancellationToken cancellationToken)
    {
        if (!File.Exists(file))
            return null;
        string[] lines;
        try
        {
            lines = await File.ReadAllLinesAsync(file, cancellationToken);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        Delete(file);
        if (lines.Length < 3 || !int.TryParse(lines[0], NumberStyles.None, CultureInfo.InvariantCulture, out var pid) || pid <= 1)
            return null;
        var recordedStart = lines[1];
        var mountPath = lines[2];
        if (!IsSameRclone(pid, recordedStart, mountPath))
            return null;

        // The grace starts before the signal goes out: once the orphan has it, the grace is running.
        var started = time.GetTimestamp();
        _ = Kill(pid, SigTerm);
        // The grace is measured on the clock; the looks at /proc are paced in real time (the kernel's
        // pace, not a deadline), so a test's clock decides when SIGKILL goes out.
        while (IsSameRclone(pid, recordedStart, mountPath))
        {
            if (time.GetElapsedTime(started) > TermGrace)
            {
                _ = Kill(pid, SigKill);
                break;
            }

            await Task.Delay(PollInterval, cancellationToken);
        }

        // Killed, it is gone at once; waiting for the kernel to say so needs its parent, which is not us.
        while (IsSameRclone(pid, recordedStart, mountPath) && time.GetElapsedTime(started) < TermGrace * 2)
            await Task.Delay(PollInterval, cancellationToken);
        return pid;
    }

    /// <summary>Whether <paramref name="pid"/> is alive (not a zombie), started at <paramref name="startTime"/>, and is an rclone mount of <paramref name="mountPath"/>.</summary>
    internal static bool IsSameRclone(int pid, string startTime, string mountPath)
    {
        if (StartTime(pid, out var state) != startTime || state == 'Z' || state == 'X')
            return false;
        try
        {
            var arguments = File.ReadAllText($"/proc/{pid}/cmdline").Split('\0');
            return arguments.Contains("mount", StringComparer.Ordinal) && arguments.Contains(mountPath, StringComparer.Ordinal);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    internal static string? StartTime(int pid) => StartTime(pid, out _);

    /// <summary>Field 22 of <c>/proc/&lt;pid&gt;/stat</c> (clock ticks after boot; with the pid, unique for the life of the system) and the state letter.</summary>
    private static string? StartTime(int pid, out char state)
    {
        state = '?';
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            // "pid (comm) S ppid …": comm may hold spaces and parentheses, so fields count from the last ')'.
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            if (fields.Length < 20)
                return null;
            state = fields[0].Length > 0 ? fields[0][0] : '?';
            return fields[19];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int Kill(int pid, int signal);
}

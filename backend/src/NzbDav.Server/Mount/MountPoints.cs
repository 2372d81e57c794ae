using System.Diagnostics;
using System.Text;

namespace NzbDav.Server.Mount;

/// <summary>What the kernel says about a mount point, and how to take one down.</summary>
internal static class MountPoints
{
    private const string MountInfo = "/proc/self/mountinfo";

    private static readonly string[] Fusermounts = ["fusermount3", "fusermount"];

    /// <summary>The file system type mounted at <paramref name="path"/> (e.g. "fuse.rclone"), or null when nothing is.</summary>
    public static string? MountedType(string path)
    {
        if (!File.Exists(MountInfo))
            return null;
        var wanted = Path.TrimEndingDirectorySeparator(Path.GetFullPath(path));
        string? type = null;
        // The last entry for a path is the one on top.
        foreach (var line in File.ReadLines(MountInfo))
        {
            // "36 35 98:0 /root /mount/point rw,noatime master:1 - ext3 /dev/root rw": the mount point is
            // field 5 (spaces escaped as \040), the type the first field after " - ".
            var fields = line.Split(' ');
            var dash = Array.IndexOf(fields, "-");
            if (fields.Length < 5 || dash < 0 || dash + 1 >= fields.Length)
                continue;
            if (string.Equals(Unescape(fields[4]), wanted, StringComparison.Ordinal))
                type = fields[dash + 1];
        }
        return type;
    }

    /// <summary>
    /// Whether the directory can be read. A FUSE mount whose process died answers every access with
    /// "Transport endpoint is not connected" (ENOTCONN) until it is unmounted.
    /// </summary>
    public static bool IsReadable(string path, out string? error)
    {
        try
        {
            using var entries = Directory.EnumerateFileSystemEntries(path).GetEnumerator();
            entries.MoveNext();
            error = null;
            return true;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            error = ex.Message;
            return false;
        }
    }

    /// <summary>Unmounts a FUSE mount (lazily when <paramref name="lazy"/>: even while files are open); null, or why it could not.</summary>
    public static async Task<string?> UnmountAsync(string path, bool lazy, CancellationToken cancellationToken)
    {
        var fusermount = Fusermounts.FirstOrDefault(OnPath);
        var (file, args) = fusermount is not null
            ? (fusermount, lazy ? new[] { "-u", "-z", path } : ["-u", path])
            : ("umount", lazy ? new[] { "-l", path } : [path]);
        try
        {
            var (exit, output) = await RunAsync(file, args, null, TimeSpan.FromSeconds(15), cancellationToken);
            return exit == 0 ? null : $"{file} {string.Join(' ', args)} exited with {exit}: {output.Trim()}";
        }
        catch (Exception ex) when (ex is System.ComponentModel.Win32Exception or InvalidOperationException or TimeoutException)
        {
            return $"{file} could not run: {ex.Message}";
        }
    }

    public static bool OnPath(string tool) =>
        tool.Contains('/', StringComparison.Ordinal)
            ? File.Exists(tool)
            : (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries)
                .Any(directory => File.Exists(Path.Combine(directory, tool)));

    /// <summary>Runs a short command to its end: its exit code and what it wrote (stdout, then stderr).</summary>
    public static async Task<(int Exit, string Output)> RunAsync(string file, IEnumerable<string> args, string? input, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(file)
        {
            RedirectStandardInput = input is not null,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var arg in args)
            start.ArgumentList.Add(arg);
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{file} did not start.");
        var stdout = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var stderr = process.StandardError.ReadToEndAsync(cancellationToken);
        if (input is not null)
        {
            // On stdin, not the command line: what it carries never shows in the process list.
            await process.StandardInput.WriteAsync(input.AsMemory(), cancellationToken);
            process.StandardInput.Close();
        }
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(timeout);
        try
        {
            await process.WaitForExitAsync(deadline.Token);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{file} did not finish within {timeout.TotalSeconds:0} s.");
        }
        return (process.ExitCode, await stdout + await stderr);
    }

    private static string Unescape(string field)
    {
        if (!field.Contains('\\', StringComparison.Ordinal))
            return field;
        var text = new StringBuilder(field.Length);
        for (var i = 0; i < field.Length; i++)
        {
            if (field[i] == '\\' && i + 3 < field.Length && IsOctal(field[i + 1]) && IsOctal(field[i + 2]) && IsOctal(field[i + 3]))
            {
                text.Append((char)(((field[i + 1] - '0') * 64) + ((field[i + 2] - '0') * 8) + (field[i + 3] - '0')));
                i += 3;
            }
            else
            {
                text.Append(field[i]);
            }
        }
        return text.ToString();

        static bool IsOctal(char c) => c is >= '0' and <= '7';
    }
}

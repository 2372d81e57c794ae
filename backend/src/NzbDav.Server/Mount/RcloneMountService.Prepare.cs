using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Text.RegularExpressions;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.Mount;

/// <summary>One mount to run: the command, its remote control, and what it was built from.</summary>
internal sealed record MountRun(
    string Rclone,
    IReadOnlyList<string> Arguments,
    string Path,
    Uri Url,
    string? Version,
    bool Links,
    int ControlPort,
    string ControlUser,
    string ControlPassword,
    TimeSpan Timeout,
    string Fingerprint,
    string PidFile);

// Everything checked and written before rclone starts.
public sealed partial class RcloneMountService
{
    /// <summary>rclone shows symlinks in a mount (from .rclonelink entries, with --links) from this version on.</summary>
    internal static readonly Version LinksVersion = new(1, 69);

    private static readonly TimeSpan ToolTimeout = TimeSpan.FromSeconds(15);

    // Made once per process: rclone is the only one that ever learns it.
    private readonly string _mountPassword = RandomNumberGenerator.GetHexString(40, lowercase: true);

    /// <summary>What the settings would mount: a change of it restarts the mount.</summary>
    private static string Fingerprint(MountOptions settings, string path) =>
        string.Join('\u0001', [settings.Enabled.ToString(), path, settings.Rclone, settings.CacheDirectory ?? "", settings.VfsCacheMode, settings.VfsCacheMaxSize,
            settings.VfsCacheMaxAge, settings.DirCacheTime, settings.BufferSize, settings.ReadChunkSize, settings.ReadChunkSizeLimit, settings.AllowOther.ToString(),
            settings.Uid?.ToString(CultureInfo.InvariantCulture) ?? "", settings.Gid?.ToString(CultureInfo.InvariantCulture) ?? "", settings.Umask,
            settings.Links?.ToString() ?? "", .. settings.ExtraArguments]);

    /// <summary>Checks the machine and writes rclone's config: the run, or why the mount cannot start (in one sentence a user can act on).</summary>
    private async Task<(MountRun? Run, string? Error)> PrepareAsync(MountOptions settings, string path, CancellationToken cancellationToken)
    {
        if (!OperatingSystem.IsLinux())
            return (null, "The managed mount runs on Linux only; mount NzbDav's WebDAV with rclone yourself (see docs/rclone-plex-jellyfin.md).");
        if (!path.StartsWith('/'))
            return (null, $"NzbDav:MountPath must be an absolute path; it is '{path}'.");
        if (!MountPoints.OnPath(settings.Rclone))
            return (null, $"rclone was not found (Mount:Rclone is '{settings.Rclone}'): install rclone {LinksVersion} or later, or turn Mount:Enabled off.");
        if (!File.Exists("/dev/fuse"))
            return (null, "/dev/fuse does not exist: in a container add the device /dev/fuse and the capability SYS_ADMIN (see docs/mount.md), or turn Mount:Enabled off.");
        if (LocalUrl() is not { } url)
            return (null, "The server listens on no address rclone could reach.");

        var (version, versionText) = await VersionAsync(settings.Rclone, cancellationToken);
        var links = settings.Links ?? (version is not null && version >= LinksVersion);
        if (!links && settings.Links is null && nzbdav.CurrentValue.CompletedEntries == CompletedEntryKind.Symlink)
            LogNoLinks(versionText ?? "of unknown version", LinksVersion.ToString());

        var data = Path.GetFullPath(nzbdav.CurrentValue.DataDirectory);
        var pidFile = RclonePidFile.PathIn(data);
        // First the rclone a killed server left (it holds the old mount while a player keeps a file
        // open there), then its mount.
        if (await RclonePidFile.StopOrphanAsync(pidFile, time, cancellationToken) is { } orphan)
            LogOrphanStopped(orphan, path);
        if (await ClearStaleAsync(path, cancellationToken) is { } stale)
            return (null, stale);
        Directory.CreateDirectory(path);
        if (Directory.EnumerateFileSystemEntries(path).Any())
            return (null, $"{path} is not empty: NzbDav does not mount over files, which the mount would hide. Empty it or set NzbDav:MountPath to an empty folder.");

        var cache = Path.GetFullPath(settings.CacheDirectory ?? Path.Combine(data, "rclone-cache"));
        Directory.CreateDirectory(cache);
        var config = await WriteConfigAsync(settings.Rclone, Path.Combine(data, "rclone"), url, cancellationToken);
        credentials.SetInternal(MountUser, _mountPassword);

        var port = FreeLoopbackPort();
        List<string> arguments =
        [
            "--config", config, "mount", RemoteName + ":", path,
            "--rc", "--rc-addr", "127.0.0.1:" + port.ToString(CultureInfo.InvariantCulture),
            "--cache-dir", cache,
            "--vfs-cache-mode", settings.VfsCacheMode,
            "--vfs-cache-max-size", settings.VfsCacheMaxSize,
            "--vfs-cache-max-age", settings.VfsCacheMaxAge,
            "--dir-cache-time", settings.DirCacheTime,
            "--buffer-size", settings.BufferSize,
            "--vfs-read-chunk-size", settings.ReadChunkSize,
            "--vfs-read-chunk-size-limit", settings.ReadChunkSizeLimit,
            "--umask", settings.Umask,
            "--log-level", "NOTICE",
        ];
        if (settings.AllowOther)
            arguments.Add("--allow-other");
        if (settings.Uid is { } uid)
            arguments.AddRange(["--uid", uid.ToString(CultureInfo.InvariantCulture)]);
        if (settings.Gid is { } gid)
            arguments.AddRange(["--gid", gid.ToString(CultureInfo.InvariantCulture)]);
        if (links)
            arguments.Add("--links");
        arguments.AddRange(settings.ExtraArguments);
        return (new MountRun(settings.Rclone, arguments, path, url, versionText, links, port, "nzbdav-rc",
            RandomNumberGenerator.GetHexString(40, lowercase: true), settings.MountTimeout, Fingerprint(settings, path), pidFile), null);
    }

    /// <summary>
    /// A FUSE mount still at the path (rclone outlived a crash, or died and left "Transport endpoint
    /// is not connected") is taken down; null, or why it could not be.
    /// </summary>
    private async Task<string?> ClearStaleAsync(string path, CancellationToken cancellationToken)
    {
        var type = MountPoints.MountedType(path);
        if (type is null || !type.StartsWith("fuse", StringComparison.Ordinal))
        {
            // Not a FUSE mount: a bind mount of the folder (as in docker-compose) is just the folder.
            return Directory.Exists(path) && !MountPoints.IsReadable(path, out var error)
                ? $"{path} cannot be read ({error}); NzbDav does not mount over it."
                : null;
        }

        var failed = await MountPoints.UnmountAsync(path, lazy: true, cancellationToken);
        if (failed is not null)
            return $"A {type} mount is still at {path} and could not be unmounted: {failed}";
        LogStaleUnmounted(path, type);
        return null;
    }

    private static async Task<(Version? Version, string? Text)> VersionAsync(string rclone, CancellationToken cancellationToken)
    {
        var (exit, output) = await MountPoints.RunAsync(rclone, ["version"], null, ToolTimeout, cancellationToken);
        // "rclone v1.60.1-DEV" (Debian) or "rclone v1.71.0".
        var match = exit == 0 ? VersionLine().Match(output) : Match.Empty;
        return match.Success
            ? (new Version(int.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture), int.Parse(match.Groups[2].Value, CultureInfo.InvariantCulture)), match.Groups[0].Value[7..].Trim())
            : (null, null);
    }

    /// <summary>Writes the remote NzbDav's mount reads through: readable by this user only, the password obscured by rclone itself (from stdin).</summary>
    private async Task<string> WriteConfigAsync(string rclone, string directory, Uri url, CancellationToken cancellationToken)
    {
        if (!OperatingSystem.IsLinux())
            throw new PlatformNotSupportedException("The managed mount runs on Linux only.");
        Directory.CreateDirectory(directory);
        var (exit, obscured) = await MountPoints.RunAsync(rclone, ["obscure", "-"], _mountPassword, ToolTimeout, cancellationToken);
        if (exit != 0)
            throw new InvalidOperationException($"rclone obscure failed with {exit}: {obscured.Trim()}");
        var path = Path.Combine(directory, "rclone.conf");
        var text = $"""
            [{RemoteName}]
            type = webdav
            url = {url}
            vendor = other
            user = {MountUser}
            pass = {obscured.Trim()}

            """;
        var file = new FileStreamOptions { Mode = FileMode.Create, Access = FileAccess.Write, UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite };
        await using (var stream = new FileStream(path, file))
        await using (var writer = new StreamWriter(stream))
            await writer.WriteAsync(text.AsMemory(), cancellationToken);
        // An older file keeps its mode when overwritten: make sure.
        File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite);
        return path;
    }

    private static int FreeLoopbackPort()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        return ((IPEndPoint)probe.LocalEndpoint).Port;
    }

    [GeneratedRegex(@"rclone v(\d+)\.(\d+)\S*")]
    private static partial Regex VersionLine();

    [LoggerMessage(Level = LogLevel.Warning, Message = "rclone {Version} cannot show symlinks in a mount (it needs {Needed} or later): Sonarr/Radarr will see .rclonelink files in /completed. Install a newer rclone or set NzbDav:CompletedEntries=Strm")]
    private partial void LogNoLinks(string version, string needed);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Stopped the rclone (pid {Pid}) an earlier run left behind at {Path}: that server was killed without unmounting")]
    private partial void LogOrphanStopped(int pid, string path);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Unmounted a {Type} mount an earlier run left at {Path}")]
    private partial void LogStaleUnmounted(string path, string type);
}

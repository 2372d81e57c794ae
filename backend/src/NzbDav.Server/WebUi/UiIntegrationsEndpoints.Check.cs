using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Configuration;
using NzbDav.Server.Mount;
using NzbDav.Server.WebDav;

namespace NzbDav.Server.WebUi;

// POST /ui/api/integrations/check: one library file read through NzbDav:MountPath, compared with what NzbDav serves.
public static partial class UiIntegrationsEndpoints
{
    /// <summary>How much of the file is compared: its start, or the whole file when smaller.</summary>
    internal const int CompareBytes = 64 * 1024;

    /// <summary>How long one look into the mount may take: a mount whose server stopped answering hangs every call.</summary>
    private static readonly TimeSpan IoTimeout = TimeSpan.FromSeconds(20);

    private const string MountPathName = "Mount path";
    private const string MountedName = "Mounted";
    private const string LibraryFileName = "Library file";
    private const string ThroughMountName = "File through the mount";
    private const string SizeName = "Size";
    private const string BytesName = "First bytes";
    private const string CompletedName = "Completed entry";

    private static async Task<IResult> CheckAsync(
        HttpContext context, IDbContextFactory<NzbDavDbContext> contexts, IEnumerable<IDavFileOpener> openers, IOptionsMonitor<NzbDavOptions> options,
        IOptionsMonitor<MountOptions> mountOptions, MountState mount, ILoggerFactory loggers)
    {
        var settings = options.CurrentValue;
        var root = MountRoot(settings.MountPath);
        var checks = new List<UiMountCheck>();
        var check = new MountCheck(root, settings, mountOptions.CurrentValue.Enabled, mount.Current, checks);
        try
        {
            await check.RunAsync(contexts, openers.LastOrDefault(), context.RequestAborted);
        }
        catch (TimeoutException)
        {
            checks.Add(new UiMountCheck(check.Step, false,
                $"{root} did not answer within {IoTimeout.TotalSeconds:0} s: a mount whose server stopped answering (a stuck rclone, a network gone) hangs every look into it."));
        }
        catch (Exception ex) when (!context.RequestAborted.IsCancellationRequested)
        {
            // Never a 500: whatever went wrong is one more finding.
            loggers.CreateLogger(typeof(UiIntegrationsEndpoints)).LogWarning(ex, "The mount check of {Path} stopped at {Step}", root, check.Step);
            checks.Add(new UiMountCheck(check.Step, false, $"The check could not go on: {ex.Message}"));
        }

        return Results.Ok(new UiMountCheckResult(root, checks.Count > 0 && checks.All(c => c.Ok), checks));
    }

    /// <summary>Runs a look into the file system on the thread pool, bounded by <see cref="IoTimeout"/> (a dead mount can block a call for minutes).</summary>
    private static Task<T> OffThreadAsync<T>(Func<T> work, CancellationToken cancellationToken) =>
        Task.Run(work, cancellationToken).WaitAsync(IoTimeout, cancellationToken);

    /// <summary>The checks in order; each adds its finding, and one that leaves nothing to look at ends the run.</summary>
    private sealed class MountCheck(string root, NzbDavOptions settings, bool managed, MountSnapshot state, List<UiMountCheck> checks)
    {
        /// <summary>The check under way (what a timeout or an unexpected failure is reported as).</summary>
        public string Step { get; private set; } = MountPathName;

        private void Add(bool ok, string detail) => checks.Add(new UiMountCheck(Step, ok, detail));

        public async Task RunAsync(IDbContextFactory<NzbDavDbContext> contexts, IDavFileOpener? opener, CancellationToken cancellationToken)
        {
            if (!await MountPointAsync(cancellationToken))
                return;

            Step = LibraryFileName;
            var file = await ChooseFileAsync(contexts, cancellationToken);
            if (file is null)
            {
                Add(false, "The library has no file yet, so nothing can be read through the mount. Add an NZB on the Queue page and check again once it has completed.");
                return;
            }

            var (item, job) = file.Value;
            Add(true, $"Reading {item.Path} ({Bytes(item.Size)}), of the newest completed job.");

            Step = ThroughMountName;
            var mounted = root.TrimEnd('/') + item.Path;
            if (!await OffThreadAsync(() => File.Exists(mounted), cancellationToken))
            {
                Add(false, $"{mounted} is not there, although NzbDav's library has {item.Path}: what is at {root} is not NzbDav's tree (another folder or another server), "
                    + "or the mount's listing is older than the job (rclone's --dir-cache-time).");
                return;
            }
            Add(true, $"{mounted} is there.");

            Step = SizeName;
            var length = await OffThreadAsync(() => new FileInfo(mounted).Length, cancellationToken);
            if (length == item.Size)
                Add(true, $"{mounted} is {Bytes(length)} through the mount, as in the library.");
            else
                Add(false, $"{mounted} is {Bytes(length)} through the mount but {Bytes(item.Size)} in NzbDav's library: the mount shows something else at this path than NzbDav serves.");

            Step = BytesName;
            await CompareAsync(opener, item, mounted, cancellationToken);

            Step = CompletedName;
            await CompletedEntryAsync(item, job, cancellationToken);
        }

        /// <summary>The path exists, can be read, and something is mounted there; false when nothing further can be looked at.</summary>
        private async Task<bool> MountPointAsync(CancellationToken cancellationToken)
        {
            var type = MountPoints.MountedType(root);
            var (exists, readable, error, entries) = await OffThreadAsync(() =>
            {
                var canRead = MountPoints.IsReadable(root, out var why);
                var there = Directory.Exists(root);
                return (there, canRead, why, there && canRead ? Directory.EnumerateFileSystemEntries(root).Take(1000).Count() : 0);
            }, cancellationToken);

            if (type is not null && !readable)
            {
                Add(false, error?.Contains("not connected", StringComparison.OrdinalIgnoreCase) == true
                    ? $"{root} is a dead mount: reading it fails with \"Transport endpoint is not connected\", because the rclone that served it exited without unmounting. "
                        + $"Unmount it (fusermount3 -uz {root}) and start rclone again; NzbDav's managed mount (Mount:Enabled) does both by itself."
                    : $"{root} is a {type} mount that cannot be read: {error}");
                return false;
            }

            if (!exists)
            {
                Add(false, $"{root} does not exist where NzbDav runs. If NzbDav runs in another container or on another machine than the mount, this check cannot see the mount, "
                    + $"which is not necessarily a problem: look there that {root}/content lists your categories. Otherwise create the folder and mount NzbDav there "
                    + "(the rclone command below, or Mount:Enabled=true).");
                return false;
            }

            if (!readable)
            {
                Add(false, $"{root} cannot be read by NzbDav: {error}");
                return false;
            }

            Add(true, $"{root} exists where NzbDav runs.");
            Step = MountedName;
            if (type is null)
            {
                var managedNote = managed && state.Phase != MountPhase.Mounted
                    ? $" NzbDav's managed mount is {state.Phase.ToString().ToLowerInvariant()}" + (state.LastError is { } last ? ": " + last : ".")
                    : "";
                if (entries == 0)
                {
                    Add(false, $"Nothing is mounted at {root}: it is an empty folder, not a mount point. Mount NzbDav there (the rclone command below) "
                        + "or turn on NzbDav's managed mount (Mount:Enabled=true)." + managedNote);
                    return false;
                }

                Add(false, $"Nothing is mounted at {root}: it is a plain folder holding {entries} {(entries == 1 ? "entry" : "entries")}, not a mount point. "
                    + "The checks below read what the folder holds." + managedNote);
                return true;
            }

            Add(true, type.StartsWith("fuse", StringComparison.Ordinal)
                ? $"{root} is a {type} mount" + (managed && state.Phase == MountPhase.Mounted ? ", NzbDav's managed mount." : ".")
                : $"A {type} file system is mounted at {root}, not a FUSE (rclone) mount: fine if it is a bind of a folder that shows the mount; the checks below tell.");
            return true;
        }

        /// <summary>A file of the newest completed job: a video when there is one (it has a .strm entry), else the largest.</summary>
        private static async Task<(DavItem Item, Job Job)?> ChooseFileAsync(IDbContextFactory<NzbDavDbContext> contexts, CancellationToken cancellationToken)
        {
            await using var db = await contexts.CreateDbContextAsync(cancellationToken);
            var job = await db.Jobs.AsNoTracking()
                .Where(j => j.Status == JobStatus.Completed && db.DavItems.Any(i => i.JobId == j.Id && !i.IsDirectory))
                .OrderByDescending(j => j.CompletedAt).FirstOrDefaultAsync(cancellationToken);
            if (job is null)
                return null;
            var files = await db.DavItems.AsNoTracking().Where(i => i.JobId == job.Id && !i.IsDirectory)
                .Select(i => new { i.Id, i.Name, i.Size }).ToListAsync(cancellationToken);
            var chosen = files.OrderByDescending(f => f.Size > 0).ThenByDescending(f => DavTree.IsVideo(f.Name)).ThenByDescending(f => f.Size).First();
            var item = await db.DavItems.AsNoTracking().FirstAsync(i => i.Id == chosen.Id, cancellationToken);
            return (item, job);
        }

        /// <summary>The start of the file (or all of it) through the mount against the same bytes from NzbDav's own streaming path.</summary>
        private async Task CompareAsync(IDavFileOpener? opener, DavItem item, string mounted, CancellationToken cancellationToken)
        {
            var count = (int)Math.Min(CompareBytes, item.Size);
            if (count == 0)
            {
                Add(true, $"{mounted} is empty: there are no bytes to compare.");
                return;
            }

            if (opener is null)
            {
                Add(false, "File streaming is not available in this build, so NzbDav's own bytes cannot be read to compare.");
                return;
            }

            var served = new byte[count];
            try
            {
                using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                deadline.CancelAfter(IoTimeout);
                await using var source = await opener.OpenAsync(item, count, ranged: true, deadline.Token);
                await source.ReadExactlyAsync(served, deadline.Token);
            }
            catch (Exception ex) when (ex is DavUnavailableException or IOException || (ex is OperationCanceledException && !cancellationToken.IsCancellationRequested))
            {
                Add(false, $"NzbDav could not read {item.Path} itself ({ex.Message}), so the mount cannot show it either: see the Health page and the providers.");
                return;
            }

            byte[] seen;
            int read;
            try
            {
                (seen, read) = await OffThreadAsync(() =>
                {
                    var buffer = new byte[count];
                    using var stream = new FileStream(mounted, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, bufferSize: 1);
                    return (buffer, stream.ReadAtLeast(buffer, count, throwOnEndOfStream: false));
                }, cancellationToken);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                Add(false, $"Reading {mounted} through the mount failed: {ex.Message}");
                return;
            }

            var what = count == item.Size ? $"All {Bytes(count)} of {mounted}" : $"The first {Bytes(count)} of {mounted}";
            var differs = served.AsSpan(0, read).CommonPrefixLength(seen.AsSpan(0, read));
            if (read == count && differs == count)
                Add(true, $"{what} read through the mount are the bytes NzbDav serves for {item.Path}.");
            else if (differs < read)
                Add(false, $"{what} read through the mount differ from what NzbDav serves for {item.Path}, from byte {differs:N0} on.");
            else
                Add(false, $"{mounted} ended after {Bytes(read)} through the mount; NzbDav serves {Bytes(count)} there.");
        }

        /// <summary>What Sonarr/Radarr import from: the job's /completed entry for the file, as the mount shows it.</summary>
        private async Task CompletedEntryAsync(DavItem item, Job job, CancellationToken cancellationToken)
        {
            // /content/<category folder>/<job folder>/…: the job folder names its /completed folder.
            var segments = item.Path.Split('/', StringSplitOptions.RemoveEmptyEntries);
            if (segments.Length < 4)
            {
                Add(false, $"{item.Path} is not inside a job folder, so it has no completed entry.");
                return;
            }

            var folder = settings.StoragePathFor(job.Category, segments[2]);
            if (settings.CompletedEntries == CompletedEntryKind.Strm)
                await StrmAsync(item, folder, cancellationToken);
            else
                await SymlinkAsync(item, folder, cancellationToken);
        }

        private async Task SymlinkAsync(DavItem item, string folder, CancellationToken cancellationToken)
        {
            var entry = folder + "/" + item.Name;
            var (target, resolves, isFile, rcloneLink, folderExists) = await OffThreadAsync(() =>
            {
                var info = new FileInfo(entry);
                return (info.LinkTarget, File.Exists(entry), info.Exists, File.Exists(entry + ".rclonelink"), Directory.Exists(folder));
            }, cancellationToken);

            if (target is not null)
            {
                Add(resolves, resolves
                    ? $"{entry} is a symlink to {target}, which resolves: Sonarr/Radarr can import it."
                    : $"{entry} is a symlink to {target}, which does not resolve here: {root}/.ids/ must be visible at that same path wherever the link is read (NzbDav, Sonarr/Radarr, Plex/Jellyfin).");
            }
            else if (rcloneLink)
            {
                var version = managed && state.RcloneVersion is { } v ? $" (the managed mount runs rclone {v})" : "";
                Add(false, $"{folder} shows {item.Name}.rclonelink, a small text file, instead of a symlink named {item.Name}: the rclone serving the mount is older than 1.69 "
                    + $"or runs without --links{version}, and Sonarr/Radarr will not import it. Fix: rclone 1.69 or later with --links, or set NzbDav:CompletedEntries=Strm.");
            }
            else if (isFile)
            {
                Add(false, $"{entry} is a plain file, not a symlink: Sonarr/Radarr would import a copy, which reads the whole file from Usenet. Run rclone with --links and without --copy-links.");
            }
            else
            {
                Add(false, folderExists
                    ? $"{folder} has no entry for {item.Name}."
                    : $"{folder} is not there: the mount does not show the job's completed folder (its listing may be older than the job: rclone's --dir-cache-time).");
            }
        }

        private async Task StrmAsync(DavItem item, string folder, CancellationToken cancellationToken)
        {
            if (!DavTree.IsVideo(item.Name))
            {
                Add(true, $"{item.Name} is not a video, so it has no .strm entry (NzbDav:CompletedEntries=Strm makes them for videos only).");
                return;
            }

            var strm = folder + "/" + Path.GetFileNameWithoutExtension(item.Name) + ".strm";
            var text = await OffThreadAsync(() => File.Exists(strm) ? File.ReadAllText(strm).Trim() : null, cancellationToken);
            if (text is null)
            {
                Add(false, $"{strm} is not there: the mount does not show the job's .strm entry (its listing may be older than the job: rclone's --dir-cache-time).");
                return;
            }

            if (!Uri.TryCreate(text, UriKind.Absolute, out var url) || (url.Scheme != Uri.UriSchemeHttp && url.Scheme != Uri.UriSchemeHttps))
            {
                Add(false, $"{strm} does not hold a URL: it holds \"{(text.Length > 100 ? text[..100] + "…" : text)}\".");
                return;
            }

            var loopback = url.IsLoopback
                ? " Only this machine reaches that address: set NzbDav:WebDav:PublicUrl to the address Jellyfin reaches NzbDav at."
                : "";
            Add(true, $"{strm} holds {url}, which Jellyfin plays from NzbDav.{loopback}");
        }

        private static string Bytes(long count) => count == 1 ? "1 byte" : $"{count:N0} bytes";
    }
}

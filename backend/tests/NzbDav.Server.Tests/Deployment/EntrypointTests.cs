using System.Runtime.Versioning;
using System.Text;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.RealClients;

namespace NzbDav.Server.Tests.Deployment;

/// <summary>
/// docker/entrypoint.sh run for real with sh, its paths pointed at a temporary folder: as root it
/// gives the state and mount directories to PUID:PGID and runs the command as them with UMASK; as
/// another user it runs the command as that user.
/// </summary>
[SupportedOSPlatform("linux")]
public sealed class EntrypointTests
{
    private const string Uid = "4321";
    private const string Gid = "4322";
    private const string Report = "id -u; id -g; umask; echo \"$HOME\"; touch \"$HOME/written-by-the-server\"";

    [Fact]
    public async Task As_root_it_runs_the_command_as_PUID_PGID_with_UMASK_and_gives_them_the_state_directory()
    {
        var ct = TestContext.Current.CancellationToken;
        await RequireRootAsync(ct);
        using var work = new TempDirectory();
        var paths = new Paths(work.Path);
        Directory.CreateDirectory(paths.Config);
        await File.WriteAllTextAsync(Path.Combine(paths.Config, "settings.json"), "{}", ct);
        Directory.CreateDirectory(Path.Combine(paths.Config, "logs"));

        var result = await RunAsync(paths, Uid, Gid, "027", ["sh", "-c", Report], ct);

        Assert.True(result.ExitCode == 0, $"the entry point exited with {result.ExitCode}: {result.Errors}");
        Assert.Equal(new[] { Uid, Gid, "0027", paths.Config }, Lines(result));
        // What was there before (an upgrade from an image that ran as root) now belongs to PUID:PGID.
        foreach (var path in new[] { paths.Config, Path.Combine(paths.Config, "settings.json"), Path.Combine(paths.Config, "logs") })
            Assert.Equal($"{Uid}:{Gid}", await OwnerAsync(path, ct));
        // The mount directory and its parent, created for the managed mount.
        Assert.Equal($"{Uid}:{Gid}", await OwnerAsync(paths.Mount, ct));
        Assert.Equal($"{Uid}:{Gid}", await OwnerAsync(Path.GetDirectoryName(paths.Mount)!, ct));
        // The command ran as PUID:PGID with UMASK 027: rw for the user, r for the group, nothing for others.
        var written = Path.Combine(paths.Config, "written-by-the-server");
        Assert.Equal($"{Uid}:{Gid}", await OwnerAsync(written, ct));
        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead, File.GetUnixFileMode(written));
    }

    [Fact]
    public async Task A_state_directory_that_already_belongs_to_PUID_is_not_walked_again()
    {
        var ct = TestContext.Current.CancellationToken;
        await RequireRootAsync(ct);
        using var work = new TempDirectory();
        var paths = new Paths(work.Path);
        var first = await RunAsync(paths, Uid, Gid, "002", ["true"], ct);
        Assert.True(first.ExitCode == 0, $"the entry point exited with {first.ExitCode}: {first.Errors}");

        // A file root made inside afterwards (a `docker exec` as root, say) keeps its owner: the next
        // start sees the top already PUID's and does not chown the whole tree (the rclone cache can be large).
        var rootsFile = Path.Combine(paths.Config, "made-by-root");
        await File.WriteAllTextAsync(rootsFile, "", ct);
        var second = await RunAsync(paths, Uid, Gid, "002", ["true"], ct);

        Assert.True(second.ExitCode == 0, $"the entry point exited with {second.ExitCode}: {second.Errors}");
        Assert.Equal("0:0", await OwnerAsync(rootsFile, ct));
        Assert.Equal($"{Uid}:{Gid}", await OwnerAsync(paths.Config, ct));
        Assert.DoesNotContain("giving", second.Errors, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("abc", Gid, "002", "PUID must be a number (a user id such as 1000), not 'abc'")]
    [InlineData(Uid, "-5", "002", "PGID must be a number (a group id such as 1000), not '-5'")]
    [InlineData(Uid, Gid, "0x2", "UMASK must be an octal mask such as 002 or 027, not '0x2'")]
    [InlineData(Uid, Gid, "0088", "UMASK must be an octal mask such as 002 or 027, not '0088'")]
    [InlineData(Uid, Gid, "00022", "UMASK must be an octal mask such as 002 or 027, not '00022'")]
    public async Task A_bad_PUID_PGID_or_UMASK_stops_it_with_exit_code_1_saying_which(string puid, string pgid, string umask, string message)
    {
        var ct = TestContext.Current.CancellationToken;
        await RequireRootAsync(ct);
        using var work = new TempDirectory();
        var paths = new Paths(work.Path);

        var result = await RunAsync(paths, puid, pgid, umask, ["echo", "the command ran"], ct);

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("nzbdav-entrypoint: error: " + message, result.Errors, StringComparison.Ordinal);
        Assert.Empty(result.Output);
        Assert.False(Directory.Exists(paths.Config), "the state directory was created although the settings were refused");
    }

    [Fact]
    public async Task A_FUSE_mount_already_at_the_mount_path_is_left_alone_and_a_bound_directory_is_given_to_PUID()
    {
        var ct = TestContext.Current.CancellationToken;
        await RequireRootAsync(ct);
        using var work = new TempDirectory();
        var paths = new Paths(work.Path);
        // The kernel's table as the entry point reads it: a FUSE mount at the mount path, as an rclone
        // that died leaves it (any access would fail with "Transport endpoint is not connected").
        await File.WriteAllTextAsync(paths.MountInfo,
            $"36 35 0:50 / {paths.Mount.Replace(" ", "\\040", StringComparison.Ordinal)} rw,nosuid,nodev shared:1 - fuse.rclone nzbdav: rw,user_id=4321\n", ct);

        var fuse = await RunAsync(paths, Uid, Gid, "002", ["true"], ct);

        Assert.True(fuse.ExitCode == 0, $"the entry point exited with {fuse.ExitCode}: {fuse.Errors}");
        Assert.Contains($"{paths.Mount} is already a FUSE mount (fuse.rclone); left to the server", fuse.Errors, StringComparison.Ordinal);
        Assert.False(Directory.Exists(paths.Mount), "the entry point touched the path of a FUSE mount");

        // A directory bound from the host (docker-compose's volume) is a mount point too, but an
        // ordinary one: fusermount3 needs PUID to be able to write to it, so it is given to them.
        Directory.CreateDirectory(paths.Mount);
        await File.WriteAllTextAsync(paths.MountInfo,
            $"36 35 8:1 /srv/nzbdav {paths.Mount.Replace(" ", "\\040", StringComparison.Ordinal)} rw,relatime shared:1 - ext4 /dev/sda1 rw\n", ct);
        var bound = await RunAsync(paths, Uid, Gid, "002", ["true"], ct);

        Assert.True(bound.ExitCode == 0, $"the entry point exited with {bound.ExitCode}: {bound.Errors}");
        Assert.Equal($"{Uid}:{Gid}", await OwnerAsync(paths.Mount, ct));
    }

    [Fact]
    public async Task Started_as_another_user_it_runs_the_command_as_that_user_with_UMASK_and_says_PUID_cannot_apply()
    {
        var ct = TestContext.Current.CancellationToken;
        await RequireRootAsync(ct);
        using var work = new TempDirectory();
        var paths = new Paths(work.Path);
        // The unprivileged user must reach the script and the state directory, as in an image.
        File.SetUnixFileMode(work.Path, (UnixFileMode)0b111_101_101);
        Directory.CreateDirectory(paths.Config);
        await ExternalTool.RunCheckedAsync("chown", [$"{Uid}:{Gid}", paths.Config], ct);

        // `docker run --user 4321:4322`: the process starts as that user (setpriv plays docker's part).
        var result = await RunAsync(paths, "1000", "1000", "027", ["sh", "-c", Report], ct,
            ["setpriv", $"--reuid={Uid}", $"--regid={Gid}", "--clear-groups", "--"]);

        Assert.True(result.ExitCode == 0, $"the entry point exited with {result.ExitCode}: {result.Errors}");
        Assert.Equal(new[] { Uid, Gid, "0027", paths.Config }, Lines(result));
        Assert.Contains($"note: PUID=1000 PGID=1000 cannot be applied: the container was started as {Uid}:{Gid}", result.Errors, StringComparison.Ordinal);
        Assert.False(Directory.Exists(paths.Mount), "an unprivileged start prepared the mount directory");
    }

    /// <summary>The folders the entry point is pointed at, inside one temporary folder.</summary>
    private sealed record Paths(string Root)
    {
        public string Config => Path.Combine(Root, "config");

        public string Mount => Path.Combine(Root, "mnt", "nzbdav");

        public string MountInfo => Path.Combine(Root, "mountinfo");

        public string Script => Path.Combine(Root, "entrypoint.sh");
    }

    private static async Task<ToolResult> RunAsync(Paths paths, string puid, string pgid, string umask, string[] command, CancellationToken ct, string[]? prefix = null)
    {
        // A copy beside the folders, so an unprivileged user can read it whatever the checkout's permissions.
        if (!File.Exists(paths.Script))
        {
            File.Copy(Repository.PathOf("docker", "entrypoint.sh"), paths.Script);
            File.SetUnixFileMode(paths.Script, (UnixFileMode)0b111_101_101);
        }
        if (!File.Exists(paths.MountInfo))
            await File.WriteAllTextAsync(paths.MountInfo, "", ct);

        var environment = new Dictionary<string, string?>
        {
            ["PUID"] = puid,
            ["PGID"] = pgid,
            ["UMASK"] = umask,
            ["NZBDAV_CONFIG_DIR"] = paths.Config,
            ["NZBDAV_MOUNT_DIR"] = paths.Mount,
            ["NZBDAV_MOUNTINFO"] = paths.MountInfo,
            ["HOME"] = "/root",
        };
        string[] arguments = [.. prefix ?? [], "sh", paths.Script, .. command];
        return await ExternalTool.RunAsync(arguments[0], arguments[1..], new ToolRun(TimeSpan.FromMinutes(1), "apt-get install -y util-linux", environment), ct);
    }

    private static async Task RequireRootAsync(CancellationToken ct)
    {
        if (!OperatingSystem.IsLinux())
            Assert.Skip("the entry point is a Linux container's");
        var id = Encoding.ASCII.GetString(await ExternalTool.RunCheckedAsync("id", ["-u"], ct)).Trim();
        if (id != "0")
            Assert.Skip($"switching to PUID/PGID needs root, and the tests run as uid {id} (CI runs them as root)");
    }

    private static async Task<string> OwnerAsync(string path, CancellationToken ct) =>
        Encoding.ASCII.GetString(await ExternalTool.RunCheckedAsync("stat", ["-c", "%u:%g", path], ct)).Trim();

    private static string[] Lines(ToolResult result) =>
        Encoding.UTF8.GetString(result.Output).Split('\n', StringSplitOptions.RemoveEmptyEntries);
}

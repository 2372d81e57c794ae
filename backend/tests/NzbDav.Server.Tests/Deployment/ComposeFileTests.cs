using System.Text.Json;
using System.Text.RegularExpressions;

namespace NzbDav.Server.Tests.Deployment;

/// <summary>
/// The compose files, validated and rendered by a real compose parser (Debian's docker-compose),
/// and what makes them work: FUSE in the container that mounts, the mount shared with the others at
/// one path, the health check that service_healthy waits for.
/// </summary>
public sealed partial class ComposeFileTests
{
    private const string OneContainer = "docker-compose.yml";
    private const string Sidecar = "docker/compose.rclone-sidecar.yml";
    private const string FullStack = "docker/compose.full-stack.yml";
    private const string Cluster = "docker/compose.cluster.yml";
    private const string MountPath = "/mnt/nzbdav";

    [Theory]
    [InlineData(OneContainer)]
    [InlineData(Sidecar)]
    [InlineData(FullStack)]
    [InlineData(Cluster)]
    public async Task The_compose_file_is_valid(string file)
    {
        var result = await ComposeFile.ValidateAsync(file, withPassword: true, TestContext.Current.CancellationToken);
        Assert.True(result.ExitCode == 0, $"docker-compose -f {file} config -q exited with {result.ExitCode}: {result.Errors}");
    }

    [Fact]
    public async Task The_cluster_file_runs_three_nodes_on_one_postgres_library_behind_haproxy_alone_on_the_port()
    {
        var ct = TestContext.Current.CancellationToken;
        var config = await ComposeFile.RenderAsync(Cluster, ct);
        var nodes = new[] { "nzbdav-1", "nzbdav-2", "nzbdav-3" }.Select(name => config.Service(name)).ToList();
        Assert.All(nodes, node =>
        {
            Assert.Equal("postgres", node.Environment("Database__Provider"));
            Assert.Equal("Host=postgres;Database=nzbdav;Username=nzbdav;Password=" + ComposeFile.Password, node.Environment("Database__ConnectionString"));
            Assert.Equal(ComposeFile.Password, node.Environment("NzbDav__WebDav__Password"));
            Assert.Contains("http://127.0.0.1:3000/ready", node.GetProperty("healthcheck").GetProperty("test").EnumerateArray().Select(t => t.GetString()));
            Assert.False(node.TryGetProperty("ports", out _), "a node publishes no port: everything goes through HAProxy");
            Assert.Equal("service_healthy", node.GetProperty("depends_on").GetProperty("postgres").GetProperty("condition").GetString());
        });
        Assert.Equal(["nzbdav-1", "nzbdav-2", "nzbdav-3"], nodes.Select(n => n.Environment("Cluster__NodeName")));
        // Each node its own data directory (disk cache, logs); nothing shared on disk.
        Assert.Equal(3, nodes.Select(n => n.Volumes().Single(v => v.Target == "/config").Source).Distinct().Count());
        Assert.Equal("nzbdav", config.Service("postgres").Environment("POSTGRES_USER"));

        var haproxy = config.Service("haproxy");
        Assert.Contains(haproxy.GetProperty("ports").EnumerateArray(), p => p.GetProperty("published").ToString() == "3000" && p.GetProperty("target").ToString() == "3000");
        var mounted = haproxy.Volumes().Single(v => v.Target == "/usr/local/etc/haproxy/haproxy.cfg");
        Assert.Equal(Repository.PathOf("docker/haproxy.cfg"), mounted.Source);
        var check = await RealClients.ExternalTool.RunAsync("haproxy", ["-c", "-f", mounted.Source], ct);
        Assert.True(check.ExitCode == 0, $"haproxy -c: {check.Errors}");
    }

    [Fact]
    public async Task The_one_container_file_runs_the_managed_mount_and_shares_it_with_the_host()
    {
        var nzbdav = (await ComposeFile.RenderAsync(OneContainer, TestContext.Current.CancellationToken)).Service("nzbdav");

        Assert.Equal(Repository.Root, nzbdav.GetProperty("build").GetProperty("context").GetString());
        Assert.Equal("nzbdav:latest", nzbdav.GetProperty("image").GetString());
        Assert.Equal("unless-stopped", nzbdav.GetProperty("restart").GetString());
        Assert.Equal("true", nzbdav.Environment("Mount__Enabled"));
        Assert.Equal(MountPath, nzbdav.Environment("NzbDav__MountPath"));
        AssertUser(nzbdav);
        AssertCanMount(nzbdav);
        Assert.Contains(new ComposeVolume(MountPath, MountPath, "rshared"), nzbdav.Volumes());
        Assert.Contains(nzbdav.Volumes(), v => v.Target == "/config" && v.Source == Repository.PathOf("config"));
        Assert.Contains(nzbdav.GetProperty("ports").EnumerateArray(), p => p.GetProperty("published").ToString() == "3000" && p.GetProperty("target").ToString() == "3000");
        AssertImageHealthCheck(nzbdav);
    }

    [Fact]
    public async Task The_sidecar_file_mounts_with_the_recommended_flags_once_NzbDav_is_healthy()
    {
        var config = await ComposeFile.RenderAsync(Sidecar, TestContext.Current.CancellationToken);
        var nzbdav = config.Service("nzbdav");
        var rclone = config.Service("rclone");

        // NzbDav itself needs no privilege here; rclone mounts.
        Assert.Empty(nzbdav.Strings("cap_add"));
        Assert.Empty(nzbdav.Strings("devices"));
        AssertImageHealthCheck(nzbdav);
        AssertUser(nzbdav);
        Assert.Equal(ComposeFile.Password, nzbdav.Environment("NzbDav__WebDav__Password"));
        Assert.Equal(MountPath, nzbdav.Environment("NzbDav__MountPath"));

        Assert.Equal("service_healthy", rclone.GetProperty("depends_on").GetProperty("nzbdav").GetProperty("condition").GetString());
        AssertCanMount(rclone);
        Assert.Contains(new ComposeVolume(MountPath, MountPath, "rshared"), rclone.Volumes());
        Assert.Equal(DockerfileTests.RcloneImage(), rclone.GetProperty("image").GetString());
        Assert.Equal("http://nzbdav:3000/", rclone.Environment("RCLONE_CONFIG_NZBDAV_URL"));
        Assert.Equal("other", rclone.Environment("RCLONE_CONFIG_NZBDAV_VENDOR"));
        Assert.Equal(nzbdav.Environment("NzbDav__WebDav__User"), rclone.Environment("RCLONE_CONFIG_NZBDAV_USER"));

        // Every flag of the documented mount command, with the files owned by NzbDav's PUID/PGID.
        var command = string.Join(' ', rclone.Strings("command"));
        Assert.Contains($"rclone mount nzbdav: {MountPath}", command, StringComparison.Ordinal);
        foreach (var flag in DocumentedMountFlags())
        {
            var expected = flag switch
            {
                "--uid 1000" => "--uid " + nzbdav.Environment("PUID"),
                "--gid 1000" => "--gid " + nzbdav.Environment("PGID"),
                _ => flag,
            };
            Assert.True(Regex.IsMatch(command, Regex.Escape(expected) + @"(\s|$)"), $"the rclone command lacks '{expected}': {command}");
        }
    }

    [Fact]
    public async Task The_sidecar_file_refuses_to_run_without_a_WebDAV_password()
    {
        var result = await ComposeFile.ValidateAsync(Sidecar, withPassword: false, TestContext.Current.CancellationToken);

        Assert.NotEqual(0, result.ExitCode);
        Assert.Contains("set NZBDAV_WEBDAV_PASSWORD in .env", result.Errors, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_full_stack_shows_the_mount_and_the_library_at_the_same_paths_in_every_container()
    {
        var config = await ComposeFile.RenderAsync(FullStack, TestContext.Current.CancellationToken);
        var nzbdav = config.Service("nzbdav");
        Assert.Equal("true", nzbdav.Environment("Mount__Enabled"));
        Assert.Equal(MountPath, nzbdav.Environment("NzbDav__MountPath"));
        AssertCanMount(nzbdav);
        AssertImageHealthCheck(nzbdav);
        Assert.Contains(new ComposeVolume(MountPath, MountPath, "rshared"), nzbdav.Volumes());

        var readers = new[] { "sonarr", "radarr", "plex", "jellyfin" }.ToDictionary(name => name, name => config.Service(name));
        var library = LibraryVolumes(readers["sonarr"]);
        Assert.NotEmpty(library);
        foreach (var (name, service) in readers)
        {
            // The symlinks point into /mnt/nzbdav/.ids: the same path in every container that reads them.
            Assert.True(service.Volumes().Contains(new ComposeVolume(MountPath, MountPath, "rslave")), $"{name} does not see {MountPath} at {MountPath} with rslave propagation");
            Assert.Equal(library, LibraryVolumes(service));
            Assert.Equal(nzbdav.Environment("PUID"), service.Environment("PUID"));
            Assert.Equal(nzbdav.Environment("PGID"), service.Environment("PGID"));
        }
        foreach (var name in new[] { "sonarr", "radarr" })
            Assert.Equal("service_healthy", readers[name].GetProperty("depends_on").GetProperty("nzbdav").GetProperty("condition").GetString());
        Assert.Equal(new[] { "plex" }, readers["plex"].Strings("profiles"));
        Assert.Equal(new[] { "jellyfin" }, readers["jellyfin"].Strings("profiles"));
    }

    /// <summary>The flags of the mount command docs/rclone-plex-jellyfin.md recommends, each with its value.</summary>
    private static List<string> DocumentedMountFlags()
    {
        var doc = File.ReadAllText(Repository.PathOf("docs", "rclone-plex-jellyfin.md"));
        var block = MountCommandBlock().Match(doc);
        Assert.True(block.Success, "docs/rclone-plex-jellyfin.md has no ```bash block starting with `rclone mount nzbdav:`");
        var words = block.Groups[1].Value.Replace("\\\n", " ", StringComparison.Ordinal).Split((char[])[' ', '\n'], StringSplitOptions.RemoveEmptyEntries);
        var flags = new List<string>();
        for (var i = 0; i < words.Length; i++)
        {
            if (!words[i].StartsWith("--", StringComparison.Ordinal))
                continue;
            var hasValue = i + 1 < words.Length && !words[i + 1].StartsWith("--", StringComparison.Ordinal);
            flags.Add(hasValue ? words[i] + " " + words[i + 1] : words[i]);
        }
        Assert.Contains("--links", flags);
        return flags;
    }

    private static HashSet<ComposeVolume> LibraryVolumes(JsonElement service) =>
        [.. service.Volumes().Where(v => v.Target != "/config" && v.Target != MountPath).Select(v => v with { Propagation = null })];

    private static void AssertCanMount(JsonElement service)
    {
        Assert.Contains("/dev/fuse:/dev/fuse", service.Strings("devices"));
        Assert.Contains("SYS_ADMIN", service.Strings("cap_add"));
        Assert.Contains("apparmor:unconfined", service.Strings("security_opt"));
    }

    private static void AssertUser(JsonElement service)
    {
        foreach (var name in new[] { "PUID", "PGID" })
            Assert.Matches("^[0-9]+$", service.Environment(name) ?? "");
        Assert.Matches("^[0-7]{3,4}$", service.Environment("UMASK") ?? "");
        Assert.NotNull(service.Environment("TZ"));
    }

    /// <summary>The service's own health check is the image's (service_healthy waits for it).</summary>
    private static void AssertImageHealthCheck(JsonElement service)
    {
        var test = service.GetProperty("healthcheck").Strings("test");
        Assert.Equal(DockerfileTests.HealthCheckCommand().Prepend("CMD"), test);
    }

    [GeneratedRegex(@"```bash\n(rclone mount nzbdav:[^`]*)```")]
    private static partial Regex MountCommandBlock();
}

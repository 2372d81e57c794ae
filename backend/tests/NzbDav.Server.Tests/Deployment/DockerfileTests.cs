using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using NzbDav.Server.Tests.RealClients;

namespace NzbDav.Server.Tests.Deployment;

/// <summary>
/// What the image must hold and do, read from the Dockerfile (no Docker engine runs here): rclone
/// new enough for symlinks in a mount, FUSE for an unprivileged user, the entry point that switches
/// to PUID/PGID, /config as the only state, the health check.
/// </summary>
public sealed partial class DockerfileTests
{
    /// <summary>The first rclone whose mounts show symlinks (--links); 1.60 shows .rclonelink files.</summary>
    private static readonly Version LinksInMounts = new(1, 69);

    [Fact]
    public void The_image_runs_on_the_ASP_NET_runtime_with_fuse3_tzdata_and_user_allow_other()
    {
        var image = Dockerfile.Read().Final;
        Assert.Equal("mcr.microsoft.com/dotnet/aspnet:10.0", image.From);
        var run = string.Join('\n', image.Arguments("RUN"));
        Assert.Matches(@"apt-get install [^\n]*\bfuse3\b", run);
        Assert.Matches(@"apt-get install [^\n]*\btzdata\b", run);
        Assert.Contains("user_allow_other", run, StringComparison.Ordinal);
        Assert.Contains("/etc/fuse.conf", run, StringComparison.Ordinal);
    }

    [Fact]
    public void The_image_takes_rclone_from_the_official_image_at_a_version_whose_mounts_show_symlinks()
    {
        var dockerfile = Dockerfile.Read();
        var image = RcloneImage();
        var version = Version.Parse(image["rclone/rclone:".Length..]);
        Assert.True(version >= LinksInMounts, $"{image}: --links in a mount needs rclone {LinksInMounts} or later");
        Assert.Equal("rclone/rclone:${RCLONE_VERSION}", dockerfile.Stage("rclone").From.Split(' ')[0]);
        Assert.Contains(dockerfile.Final.Arguments("COPY"), copy => copy == "--from=rclone /usr/local/bin/rclone /usr/local/bin/rclone");
    }

    [Fact]
    public void The_image_starts_through_the_entrypoint_with_PUID_PGID_UMASK_TZ_and_config_as_its_only_state()
    {
        var image = Dockerfile.Read().Final;
        Assert.Contains(image.Arguments("COPY"), copy => copy == "--chmod=0755 docker/entrypoint.sh /usr/local/bin/nzbdav-entrypoint");
        Assert.Equal(new[] { "[\"nzbdav-entrypoint\"]" }, image.Arguments("ENTRYPOINT"));
        Assert.Equal(new[] { "[\"dotnet\", \"/app/NzbDav.dll\"]" }, image.Arguments("CMD"));
        Assert.Equal(new[] { "/config" }, image.Arguments("VOLUME"));

        var environment = image.Arguments("ENV").SelectMany(e => e.Split(' ')).Select(pair => pair.Split('=', 2)).ToDictionary(p => p[0], p => p[1]);
        Assert.Equal("/config", environment["NzbDav__DataDirectory"]);
        Assert.Equal("1000", environment["PUID"]);
        Assert.Equal("1000", environment["PGID"]);
        Assert.Equal("002", environment["UMASK"]);
        Assert.Equal("Etc/UTC", environment["TZ"]);
        // An environment value locks a setting in the web UI and over settings.json: the image leaves
        // the mount's settings to their defaults (off, /mnt/nzbdav), and the compose file turns it on.
        Assert.DoesNotContain("Mount__Enabled", environment.Keys);
        Assert.DoesNotContain("NzbDav__MountPath", environment.Keys);
        Assert.DoesNotContain(image.Instructions, i => i.Keyword == "USER");
    }

    [Fact]
    public void The_image_keeps_a_10_GiB_disk_segment_cache_under_config_in_a_file_the_web_ui_can_override()
    {
        var image = Dockerfile.Read().Final;
        Assert.Contains(image.Arguments("COPY"), copy => copy == "docker/appsettings.Production.json ./appsettings.Production.json");
        var environment = string.Join(' ', image.Arguments("ENV"));
        Assert.DoesNotContain("Cache__", environment, StringComparison.Ordinal);
        using var file = JsonDocument.Parse(File.ReadAllText(Path.Combine(Repository.Root, "docker", "appsettings.Production.json")));
        var cache = file.RootElement.GetProperty("Cache");
        Assert.Equal("/config/cache", cache.GetProperty("Path").GetString());
        Assert.Equal(10L * 1024 * 1024 * 1024, cache.GetProperty("MaxBytes").GetInt64());
    }

    [Fact]
    public void The_image_checks_its_own_health_endpoint_without_curl()
    {
        Assert.Equal(new[] { "dotnet", "/app/NzbDav.dll", "--healthcheck", "http://127.0.0.1:3000/health" }, HealthCheckCommand());
    }

    [Fact]
    public async Task The_scripts_parse()
    {
        var ct = TestContext.Current.CancellationToken;
        var sh = await ExternalTool.RunAsync("sh", ["-n", Repository.PathOf("docker", "entrypoint.sh")], ct);
        Assert.True(sh.ExitCode == 0, "sh -n docker/entrypoint.sh: " + sh.Errors);
        var bash = await ExternalTool.RunAsync("bash", ["-n", Repository.PathOf("tools", "publish.sh")], ct);
        Assert.True(bash.ExitCode == 0, "bash -n tools/publish.sh: " + bash.Errors);
        var usage = await ExternalTool.RunAsync("bash", [Repository.PathOf("tools", "publish.sh"), "sparc", "/tmp/unused"], ct);
        Assert.Equal(1, usage.ExitCode);
        Assert.Contains("unknown architecture 'sparc' (expected amd64 or arm64)", usage.Errors, StringComparison.Ordinal);
        Assert.Empty(Encoding.UTF8.GetString(usage.Output).Trim());
    }

    /// <summary>The image's HEALTHCHECK command, as the exec form's array.</summary>
    internal static string[] HealthCheckCommand()
    {
        var check = Assert.Single(Dockerfile.Read().Final.Arguments("HEALTHCHECK"));
        var exec = check.IndexOf("CMD [", StringComparison.Ordinal);
        Assert.True(exec >= 0, "HEALTHCHECK is not in exec form: " + check);
        return JsonSerializer.Deserialize<string[]>(check[(exec + "CMD ".Length)..])!;
    }

    /// <summary>The official rclone image the Dockerfile copies rclone from, with its version filled in.</summary>
    internal static string RcloneImage()
    {
        var argument = Assert.Single(Dockerfile.Read().Global, i => i.Keyword == "ARG" && i.Arguments.StartsWith("RCLONE_VERSION=", StringComparison.Ordinal));
        var version = argument.Arguments["RCLONE_VERSION=".Length..];
        Assert.Matches(VersionPattern(), version);
        return "rclone/rclone:" + version;
    }

    [GeneratedRegex(@"^[0-9]+\.[0-9]+\.[0-9]+$")]
    private static partial Regex VersionPattern();
}

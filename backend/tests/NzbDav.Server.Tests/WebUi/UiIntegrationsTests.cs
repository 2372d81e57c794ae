using System.Diagnostics;
using System.Net;
using System.Text.Json;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Server.Tests.Mount;
using NzbDav.Server.Tests.RealClients;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.WebUi;

/// <summary>
/// Settings → Integrations over real sockets: the values to enter elsewhere name this server as the
/// request reached it (or its public URL), its API key, categories, completed folders and WebDAV
/// user; the mount check says what is wrong — no folder, nothing mounted, an empty library, a file of
/// the wrong size — without ever answering 500, and through NzbDav's real managed mount (rclone,
/// FUSE) every check passes.
/// </summary>
public sealed class UiIntegrationsTests(MockProviderFixture provider)
{
    private const string Password = "correct horse battery";
    private const string Placeholder = "<your WebDAV password>";
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task The_values_name_the_host_and_port_the_request_reached_the_key_categories_completed_folders_and_webdav_user_and_follow_the_public_url()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct,
            "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password, "--NzbDav:Categories:0=tv", "--NzbDav:Categories:1=movies",
            "--NzbDav:MountPath=/srv/media/nzbdav/", "--NzbDav:WebDav:User=davuser");
        using (var anonymous = await new HttpClient { BaseAddress = server.Http.BaseAddress }.GetAsync("/ui/api/integrations", ct))
            Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Password, ct);
        var port = server.Http.BaseAddress!.Port;

        var values = await UiJobsTests.GetAsync(ui, "/ui/api/integrations", ct);
        var sab = values.GetProperty("sab");
        Assert.Equal("127.0.0.1", sab.GetProperty("host").GetString());
        Assert.Equal(port, sab.GetProperty("port").GetInt32());
        Assert.False(sab.GetProperty("useSsl").GetBoolean());
        Assert.Equal("", sab.GetProperty("urlBase").GetString());
        Assert.Equal("request", sab.GetProperty("source").GetString());
        Assert.Equal(TestServer.ApiKey, sab.GetProperty("apiKey").GetString());
        Assert.Equal(
            [("tv", "/srv/media/nzbdav/completed/tv"), ("movies", "/srv/media/nzbdav/completed/movies")],
            sab.GetProperty("categories").EnumerateArray().Select(c => (c.GetProperty("category").GetString(), c.GetProperty("completedFolder").GetString())));
        var mapping = sab.GetProperty("remotePathMapping");
        Assert.Equal("/srv/media/nzbdav/completed/", mapping.GetProperty("remotePath").GetString());
        Assert.Contains("only when Sonarr/Radarr see the mount at another path than /srv/media/nzbdav", mapping.GetProperty("note").GetString(), StringComparison.Ordinal);

        var rclone = values.GetProperty("rclone");
        Assert.Equal($"http://127.0.0.1:{port}/", rclone.GetProperty("url").GetString());
        Assert.Equal("davuser", rclone.GetProperty("user").GetString());
        Assert.Equal(Placeholder, rclone.GetProperty("passwordPlaceholder").GetString());
        Assert.Equal(
            $"rclone config create nzbdav webdav url=http://127.0.0.1:{port}/ vendor=other user=davuser pass=\"$(rclone obscure '{Placeholder}')\" --no-obscure",
            rclone.GetProperty("configCommand").GetString());
        var mount = rclone.GetProperty("mountCommand").GetString()!;
        Assert.StartsWith("rclone mount nzbdav: /srv/media/nzbdav \\\n  --webdav-vendor other \\\n  --links \\\n  --vfs-cache-mode full --vfs-cache-max-size 20G", mount, StringComparison.Ordinal);
        Assert.Contains("--dir-cache-time 10s", mount, StringComparison.Ordinal);

        var compose = values.GetProperty("compose");
        Assert.Contains("NzbDav__MountPath: /srv/media/nzbdav\n", compose.GetProperty("managed").GetString(), StringComparison.Ordinal);
        Assert.Contains("- /srv/media/nzbdav:/srv/media/nzbdav:rshared\n", compose.GetProperty("managed").GetString(), StringComparison.Ordinal);
        var sidecar = compose.GetProperty("sidecar").GetString()!;
        Assert.Contains("RCLONE_CONFIG_NZBDAV_USER: \"davuser\"\n", sidecar, StringComparison.Ordinal);
        // The browser's loopback address means nothing inside a container: the compose service name instead.
        Assert.Contains("RCLONE_CONFIG_NZBDAV_URL: http://nzbdav:3000/\n", sidecar, StringComparison.Ordinal);
        Assert.Contains("mount nzbdav: /srv/media/nzbdav\n      --webdav-vendor other\n      --links\n", sidecar, StringComparison.Ordinal);

        foreach (var snippet in new[] { "managed", "sidecar" })
            await AssertValidComposeAsync(compose.GetProperty(snippet).GetString()!, data.Path, ct);

        var media = values.GetProperty("mediaServer");
        Assert.Equal("Symlink", media.GetProperty("completedEntries").GetString());
        Assert.Equal("/srv/media/nzbdav:/srv/media/nzbdav:rslave", media.GetProperty("volume").GetString());
        Assert.Empty(media.GetProperty("libraries").EnumerateArray());
        var state = values.GetProperty("mount");
        Assert.False(state.GetProperty("enabled").GetBoolean());
        Assert.Equal("off", state.GetProperty("state").GetString());
        Assert.Equal("/srv/media/nzbdav/", state.GetProperty("path").GetString());

        // The host and port are the ones the request came to (a browser on the LAN, a reverse proxy's Host).
        using (var lan = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/integrations") { Headers = { Host = "nzbdav.lan:8080" } }, ct))
        {
            var seen = await UiClient.ReadAsync(lan, ct);
            Assert.Equal("nzbdav.lan", seen.GetProperty("sab").GetProperty("host").GetString());
            Assert.Equal(8080, seen.GetProperty("sab").GetProperty("port").GetInt32());
            Assert.StartsWith("rclone config create nzbdav webdav url=http://nzbdav.lan:8080/ ", seen.GetProperty("rclone").GetProperty("configCommand").GetString(), StringComparison.Ordinal);
            Assert.Contains("RCLONE_CONFIG_NZBDAV_URL: http://nzbdav.lan:8080/\n", seen.GetProperty("compose").GetProperty("sidecar").GetString(), StringComparison.Ordinal);
        }

        // The public URL wins over the request: host, port, SSL and URL base from it; .strm entries for Jellyfin.
        using (var saved = await ui.PostAsync("/ui/api/settings", new { values = new Dictionary<string, string> { ["NzbDav:WebDav:PublicUrl"] = "https://dav.example.org/nzbdav/", ["NzbDav:CompletedEntries"] = "Strm" } }, ct))
            Assert.Equal(HttpStatusCode.OK, saved.StatusCode);
        values = await UiJobsTests.GetAsync(ui, "/ui/api/integrations", ct);
        sab = values.GetProperty("sab");
        Assert.Equal(("dav.example.org", 443, true, "/nzbdav", "public URL"),
            (sab.GetProperty("host").GetString(), sab.GetProperty("port").GetInt32(), sab.GetProperty("useSsl").GetBoolean(), sab.GetProperty("urlBase").GetString(), sab.GetProperty("source").GetString()));
        rclone = values.GetProperty("rclone");
        Assert.Equal("https://dav.example.org/nzbdav/", rclone.GetProperty("url").GetString());
        Assert.StartsWith("rclone config create nzbdav webdav url=https://dav.example.org/nzbdav/ vendor=other user=davuser ", rclone.GetProperty("configCommand").GetString(), StringComparison.Ordinal);
        Assert.DoesNotContain("--links", rclone.GetProperty("mountCommand").GetString(), StringComparison.Ordinal);
        Assert.Contains("RCLONE_CONFIG_NZBDAV_URL: https://dav.example.org/nzbdav/\n", values.GetProperty("compose").GetProperty("sidecar").GetString(), StringComparison.Ordinal);
        media = values.GetProperty("mediaServer");
        Assert.Equal("Strm", media.GetProperty("completedEntries").GetString());
        Assert.Equal(
            [("Jellyfin: tv", "/srv/media/nzbdav/completed/tv"), ("Jellyfin: movies", "/srv/media/nzbdav/completed/movies")],
            media.GetProperty("libraries").EnumerateArray().Select(l => (l.GetProperty("label").GetString(), l.GetProperty("path").GetString())));
    }

    [Fact]
    public async Task The_check_says_the_path_is_missing_nothing_is_mounted_the_library_is_empty_and_a_file_has_the_wrong_size_never_500()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        var mount = Path.Combine(data.Path, "mnt");
        var nntp = provider.Server;
        await using var server = await TestServer.StartAsync(data.Path, nntp.Port, holdQueue: false, ct,
            "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password, "--NzbDav:Categories:0=tv", "--NzbDav:MountPath=" + mount);
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Password, ct);

        // Nothing there at all: NzbDav may simply run elsewhere than the mount.
        var result = await CheckAsync(ui, ct);
        Assert.False(result.GetProperty("ok").GetBoolean());
        Assert.Equal(mount, result.GetProperty("mountPath").GetString());
        var missing = Assert.Single(Checks(result));
        Assert.Equal(("Mount path", false), (missing.Name, missing.Ok));
        Assert.StartsWith($"{mount} does not exist where NzbDav runs. If NzbDav runs in another container or on another machine than the mount, this check cannot see the mount, which is not necessarily a problem", missing.Detail, StringComparison.Ordinal);

        // An empty folder: nothing is mounted.
        Directory.CreateDirectory(mount);
        var checks = Checks(await CheckAsync(ui, ct));
        Assert.Equal([("Mount path", true), ("Mounted", false)], checks.Select(c => (c.Name, c.Ok)));
        Assert.StartsWith($"Nothing is mounted at {mount}: it is an empty folder, not a mount point.", checks[1].Detail, StringComparison.Ordinal);

        // A folder with something in it, and nothing in the library yet.
        await File.WriteAllTextAsync(Path.Combine(mount, "note.txt"), "not a mount", ct);
        checks = Checks(await CheckAsync(ui, ct));
        Assert.Equal([("Mount path", true), ("Mounted", false), ("Library file", false)], checks.Select(c => (c.Name, c.Ok)));
        Assert.StartsWith($"Nothing is mounted at {mount}: it is a plain folder holding 1 entry, not a mount point.", checks[1].Detail, StringComparison.Ordinal);
        Assert.StartsWith("The library has no file yet, so nothing can be read through the mount.", checks[2].Detail, StringComparison.Ordinal);

        // A job completes; the folder holds a fake tree whose copy of its file has the wrong size.
        var nzb = UiJobsTests.Nzb(nntp, "Show.S01E01.mkv", "Show.S01E01");
        var id = await UiJobsTests.AddOneAsync(ui, "Show.S01E01.nzb", nzb, ct, ("category", "tv"));
        Assert.Equal("Completed", (await ui.WaitForHistoryAsync(id, ct)).GetProperty("status").GetString());
        var fake = Path.Combine(mount, "content", "tv", "Show.S01E01", "Show.S01E01.mkv");
        Directory.CreateDirectory(Path.GetDirectoryName(fake)!);
        await File.WriteAllBytesAsync(fake, new byte[5_000], ct);

        result = await CheckAsync(ui, ct);
        Assert.False(result.GetProperty("ok").GetBoolean());
        checks = Checks(result);
        Assert.Equal(
            [("Mount path", true), ("Mounted", false), ("Library file", true), ("File through the mount", true), ("Size", false), ("First bytes", false), ("Completed entry", false)],
            checks.Select(c => (c.Name, c.Ok)));
        Assert.Equal("Reading /content/tv/Show.S01E01/Show.S01E01.mkv (12,000 bytes), of the newest completed job.", checks[2].Detail);
        Assert.Equal($"{fake} is 5,000 bytes through the mount but 12,000 bytes in NzbDav's library: the mount shows something else at this path than NzbDav serves.", checks[4].Detail);
        Assert.StartsWith($"All 12,000 bytes of {fake} read through the mount differ from what NzbDav serves for /content/tv/Show.S01E01/Show.S01E01.mkv, from byte ", checks[5].Detail, StringComparison.Ordinal);
        Assert.Equal($"{mount}/completed/tv/Show.S01E01 is not there: the mount does not show the job's completed folder (its listing may be older than the job: rclone's --dir-cache-time).", checks[6].Detail);

        // The same size, other bytes: the comparison names where they part.
        var other = new byte[12_000];
        other[7_000] = 1;
        await File.WriteAllBytesAsync(fake, other, ct);
        checks = Checks(await CheckAsync(ui, ct));
        Assert.True(checks[4].Ok, checks[4].Detail);
        Assert.False(checks[5].Ok);
        Assert.StartsWith($"All 12,000 bytes of {fake} read through the mount differ from what NzbDav serves for /content/tv/Show.S01E01/Show.S01E01.mkv, from byte ", checks[5].Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Through_the_real_managed_mount_every_check_passes_and_names_the_file_read()
    {
        var ct = TestContext.Current.CancellationToken;
        if (RcloneMount.Unusable(out _) is { } reason)
            Assert.Skip("FUSE is not usable here: " + reason);
        const string release = "Integrations.Show.S01E01";
        const string fileName = release + ".mkv";
        using var data = new TempDirectory();
        var mount = Path.Combine(data.Path, "mnt");
        var nntp = provider.Server;
        var content = new byte[300_007];
        new Random(14).NextBytes(content);
        var nzb = provider.Nzb(release, nntp.Store.AddFile(fileName, content, 100_000));

        // A one-second directory cache: the switch to .strm entries below shows in the mount soon.
        await using var host = await IngestionHost.StartAsync(data.Path, nntp.Port, ct, TestContext.Current.TestOutputHelper,
            "--Mount:Enabled=true", "--NzbDav:MountPath=" + mount, "--Mount:DirCacheTime=1s", "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password);
        var links = (await MountHealth.WaitMountedAsync(host.Server, ct)).GetProperty("links").GetBoolean();
        var slot = await host.AddAndWaitAsync(nzb, release + ".nzb", ct);
        Assert.Equal("Completed", slot.GetProperty("status").GetString());
        using var ui = new UiClient(host.Server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Password, ct);
        var file = $"{mount}/content/tv/{release}/{fileName}";

        // Symlink entries (the default): a symlink with rclone 1.69 or later, a .rclonelink file before.
        var checks = Checks(await CheckAsync(ui, ct));
        Assert.Equal(["Mount path", "Mounted", "Library file", "File through the mount", "Size", "First bytes", "Completed entry"], checks.Select(c => c.Name));
        Assert.All(checks[..^1], c => Assert.True(c.Ok, c.Name + ": " + c.Detail));
        Assert.Equal($"{mount} is a fuse.rclone mount, NzbDav's managed mount.", checks[1].Detail);
        Assert.Equal($"{file} is 300,007 bytes through the mount, as in the library.", checks[4].Detail);
        Assert.Equal($"The first 65,536 bytes of {file} read through the mount are the bytes NzbDav serves for /content/tv/{release}/{fileName}.", checks[5].Detail);
        var completed = $"{mount}/completed/tv/{release}";
        if (links)
        {
            Assert.True(checks[6].Ok, checks[6].Detail);
            Assert.StartsWith($"{completed}/{fileName} is a symlink to {mount}/.ids/", checks[6].Detail, StringComparison.Ordinal);
        }
        else
        {
            Assert.False(checks[6].Ok);
            Assert.StartsWith($"{completed} shows {fileName}.rclonelink, a small text file, instead of a symlink named {fileName}: the rclone serving the mount is older than 1.69 or runs without --links (the managed mount runs rclone ",
                checks[6].Detail, StringComparison.Ordinal);
            Assert.EndsWith("Fix: rclone 1.69 or later with --links, or set NzbDav:CompletedEntries=Strm.", checks[6].Detail, StringComparison.Ordinal);
        }

        // .strm entries: every check passes.
        using (var saved = await ui.PostAsync("/ui/api/settings", new { values = new Dictionary<string, string> { ["NzbDav:CompletedEntries"] = "Strm" } }, ct))
            Assert.Equal(HttpStatusCode.OK, saved.StatusCode);
        var started = Stopwatch.GetTimestamp();
        JsonElement result;
        while (!(result = await CheckAsync(ui, ct)).GetProperty("ok").GetBoolean())
        {
            if (Stopwatch.GetElapsedTime(started) > Deadline)
                Assert.Fail("The check did not pass with .strm entries: " + result);
            await Task.Delay(100, ct);
        }

        checks = Checks(result);
        Assert.Equal(7, checks.Count);
        Assert.Contains(file, checks[5].Detail, StringComparison.Ordinal);
        Assert.StartsWith($"{completed}/{release}.strm holds http://", checks[6].Detail, StringComparison.Ordinal);
    }

    /// <summary>A compose snippet as a real compose parser (Debian's docker-compose, where installed) reads it.</summary>
    private static async Task AssertValidComposeAsync(string yaml, string folder, CancellationToken cancellationToken)
    {
        var path = (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':').Select(d => Path.Combine(d, "docker-compose")).FirstOrDefault(File.Exists);
        if (path is null)
        {
            TestContext.Current.TestOutputHelper?.WriteLine("docker-compose is not installed (apt-get install -y docker-compose): the snippets were not parsed.");
            return;
        }

        var file = Path.Combine(folder, "compose-" + Guid.NewGuid().ToString("N") + ".yml");
        await File.WriteAllTextAsync(file, yaml, cancellationToken);
        using var process = Process.Start(new ProcessStartInfo(path, ["-f", file, "config", "-q"]) { RedirectStandardError = true, RedirectStandardOutput = true })!;
        var errors = process.StandardError.ReadToEndAsync(cancellationToken);
        var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken);
        Assert.True(process.ExitCode == 0, $"docker-compose config refused the snippet ({process.ExitCode}): {await errors}{await output}\n{yaml}");
    }

    private static async Task<JsonElement> CheckAsync(UiClient ui, CancellationToken cancellationToken)
    {
        using var response = await ui.PostAsync("/ui/api/integrations/check", new { }, cancellationToken);
        var body = await response.Content.ReadAsStringAsync(cancellationToken);
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"the check answered {(int)response.StatusCode}: {body}");
        return JsonDocument.Parse(body).RootElement.Clone();
    }

    private static List<(string Name, bool Ok, string Detail)> Checks(JsonElement result) =>
        [.. result.GetProperty("checks").EnumerateArray().Select(c => (c.GetProperty("name").GetString()!, c.GetProperty("ok").GetBoolean(), c.GetProperty("detail").GetString()!))];
}

using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.WebDav;

namespace NzbDav.Server.Tests.Hosting;

/// <summary>
/// The rolling log file under the data directory and the one-event-per-request log, read back from
/// the files a user would attach to a bug report.
/// </summary>
public sealed class LogFileTests
{
    [Fact]
    public async Task Each_request_is_one_line_with_method_path_status_and_time_and_no_api_key()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        const long size = 8L * 1024 * 1024;
        await using (var server = await DavTestServer.StartAsync(temp.Path, ct))
        {
            await server.SeedCompletedJobAsync("tv", "Show", [("e1.mkv", size)], ct);
            using (var version = await server.Anonymous.GetAsync($"/api?mode=version&output=json&apikey={DavTestServer.ApiKey}", ct))
            {
                Assert.Equal(200, (int)version.StatusCode);
            }
            using (var health = await server.Anonymous.GetAsync("/health", ct))
            {
                Assert.Equal(200, (int)health.StatusCode);
            }
            using (var anonymous = await server.Anonymous.GetAsync("/content/", ct))
            {
                Assert.Equal(401, (int)anonymous.StatusCode);
            }
            // A whole 8 MiB body goes out in many chunks; the log must still say it once.
            using var get = await DavHttp.SendAsync(server.Http, "GET", "/content/tv/Show/e1.mkv", ct);
            Assert.Equal(size, (await get.Content.ReadAsByteArrayAsync(ct)).LongLength);
        }

        var lines = ReadLogLines(temp.Path);
        Assert.Single(lines, l => l.Contains("HTTP GET /content/tv/Show/e1.mkv responded 200 in ", StringComparison.Ordinal));
        Assert.Single(lines, l => l.Contains("HTTP GET /api responded 200 in ", StringComparison.Ordinal) && l.Contains(" ms", StringComparison.Ordinal));
        Assert.Single(lines, l => l.Contains("HTTP GET /content/ responded 401 in ", StringComparison.Ordinal));
        // Container health probes stay out of the log at the default level; the key never gets in.
        Assert.DoesNotContain(lines, l => l.Contains("/health", StringComparison.Ordinal));
        Assert.DoesNotContain(lines, l => l.Contains(DavTestServer.ApiKey, StringComparison.Ordinal));
    }

    [Fact]
    public async Task Files_roll_at_the_size_limit_and_only_the_newest_are_kept()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using (var server = await TestServer.StartAsync(
            temp.Path, null, holdQueue: true, ct, "--NzbDav:Logs:FileSizeLimitBytes=2048", "--NzbDav:Logs:RetainedFileCount=3"))
        {
            for (var i = 0; i < 80; i++)
            {
                await server.GetAsync($"mode=version&apikey={TestServer.ApiKey}&n={i}", ct);
            }
        }

        var files = Directory.GetFiles(Path.Combine(temp.Path, "logs"), "nzbdav-*.log");
        // 80 request lines of ~150 bytes fill ~6 files of 2 KiB; three are left.
        Assert.Equal(3, files.Length);
        Assert.All(files, f => Assert.InRange(new FileInfo(f).Length, 1, 2048 + 512));
        Assert.Contains(ReadLogLines(temp.Path), l => l.Contains("HTTP GET /api responded 200", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Invalid_settings_are_named_and_the_server_still_serves()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        var logs = new LogCapture();
        await using (var server = await TestServer.StartAsync(
            temp.Path, null, holdQueue: true, services => services.AddSingleton<ILoggerProvider>(logs), ct,
            "--NzbDav:Logs:RetainedDays=0"))
        {
            var version = await server.GetAsync($"mode=version&apikey={TestServer.ApiKey}", ct);
            Assert.False(string.IsNullOrEmpty(version.GetProperty("version").GetString()));
        }

        Assert.False(Directory.Exists(Path.Combine(temp.Path, "logs")));
        Assert.Contains(logs.Entries, e => e.Any(v => v.Key == "Problem" && v.Value is string p && p.Contains("NzbDav:Logs:RetainedDays must be at least 1", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task Turned_off_writes_no_file()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using (var server = await TestServer.StartAsync(temp.Path, null, holdQueue: true, ct, "--NzbDav:Logs:Enabled=false"))
        {
            await server.GetAsync($"mode=version&apikey={TestServer.ApiKey}", ct);
        }

        Assert.False(Directory.Exists(Path.Combine(temp.Path, "logs")));
    }

    private static List<string> ReadLogLines(string dataDirectory) =>
        [.. Directory.GetFiles(Path.Combine(dataDirectory, "logs"), "nzbdav-*.log").Order(StringComparer.Ordinal).SelectMany(File.ReadLines)];
}

using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.WebDav;
using NzbDav.Server.Tests.WebUi;
using NzbDav.Tools.Demo;

namespace NzbDav.Server.Tests.Demo;

public sealed partial class DemoModeTests
{
    // Rar5.none.rar's jpg/test.jpg (see backend/tests/TestData/archives/README.md).
    private const string JpgSha256 = "b251c7501fb0f55dd4a92feabe0a6f5733bc40a02679498155fae9b30138fc53";

    [Fact]
    public async Task Demo_prints_one_line_whose_credentials_browse_and_read_the_sample_library()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        using var output = new StringWriter();

        await using (var session = await DemoRunner.StartAsync(["--urls", "http://127.0.0.1:0", "--NzbDav:DataDirectory=" + data.Path], output, ct))
        {
            var line = Assert.Single(output.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries));
            var match = LinePattern().Match(line.TrimEnd('\r'));
            Assert.True(match.Success, "Unexpected demo line: " + line);
            Assert.Equal(session.Line.ToString(), match.Value);
            Assert.Equal("demo", match.Groups["user"].Value);
            var url = new Uri(match.Groups["url"].Value);
            Assert.Equal("127.0.0.1", url.Host);
            Assert.NotEqual(0, url.Port);

            using var dav = new HttpClient { BaseAddress = url };
            dav.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic",
                Convert.ToBase64String(Encoding.UTF8.GetBytes(match.Groups["user"].Value + ":" + match.Groups["password"].Value)));

            var jobs = await DavHttp.MultistatusAsync(dav, "/content/default/", "1", null, ct);
            Assert.Contains(jobs.Keys, href => href.TrimEnd('/').EndsWith("/" + DemoContent.VideoJob, StringComparison.Ordinal));
            Assert.Contains(jobs.Keys, href => href.TrimEnd('/').EndsWith("/" + DemoContent.ArchiveJob, StringComparison.Ordinal));

            // The stored RAR5's entry streams back byte-exact through the archive layout.
            using (var jpg = await dav.GetAsync($"/content/default/{DemoContent.ArchiveJob}/jpg/test.jpg", ct))
            {
                Assert.Equal(200, (int)jpg.StatusCode);
                Assert.Equal(JpgSha256, Convert.ToHexStringLower(SHA256.HashData(await jpg.Content.ReadAsByteArrayAsync(ct))));
            }

            // The video was made with ffmpeg and cached in the demo folder; the library serves exactly its bytes.
            var cached = await File.ReadAllBytesAsync(Path.Combine(data.Path, "demo", "demo.mkv"), ct);
            using var video = await dav.GetAsync($"/content/default/{DemoContent.VideoJob}/{DemoContent.VideoFile}", ct);
            Assert.Equal(200, (int)video.StatusCode);
            Assert.Equal(cached, await video.Content.ReadAsByteArrayAsync(ct));

            // The SABnzbd API accepts the printed key.
            using var queue = await dav.GetAsync("/api?mode=queue&output=json&apikey=" + match.Groups["apikey"].Value, ct);
            Assert.Equal(200, (int)queue.StatusCode);

            // The same credentials log in to the web UI, printed last on the line.
            Assert.Equal(new Uri(url, "ui/"), new Uri(match.Groups["ui"].Value));
            using var ui = new UiClient(url);
            var uiSession = await ui.LoginAsync(match.Groups["user"].Value, match.Groups["password"].Value, ct);
            Assert.True(uiSession.GetProperty("authenticated").GetBoolean());
            Assert.False(uiSession.GetProperty("setupRequired").GetBoolean());

            using var wrong = new HttpClient { BaseAddress = url };
            using var refused = await DavHttp.PropfindAsync(wrong, "/", "1", null, ct);
            Assert.Equal(401, (int)refused.StatusCode);
        }

        // The demo never touches a real library in the data directory: only the demo folder was made.
        Assert.Equal(["demo"], Directory.GetDirectories(data.Path).Select(Path.GetFileName));
    }

    [GeneratedRegex(@"^NZBDAV-DEMO url=(?<url>http://\S+/) user=(?<user>\S+) password=(?<password>\S+) apikey=(?<apikey>\S+) ui=(?<ui>http://\S+/ui/)$")]
    private static partial Regex LinePattern();
}

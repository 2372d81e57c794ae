using System.Globalization;
using System.Text.Json;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;
using NzbDav.Tools.Demo;

namespace NzbDav.Server.Tests.RealClients;

/// <summary>ffprobe and ffmpeg open a real video over HTTP from the library, probe it and seek into its middle.</summary>
public sealed class FfmpegTests(MockProviderFixture provider)
{
    private const string Job = "Ffmpeg.Probe.S01E01";
    private const string Video = "Ffmpeg.Probe.S01E01.mkv";
    private const int Seconds = 10;
    // Small articles: the probe reads the head, the seek reads the middle and the Matroska cues at the end.
    private const int SegmentSize = 32 * 1024;

    [Fact]
    public async Task Ffprobe_reports_duration_and_streams_and_ffmpeg_seeks_to_the_middle()
    {
        var ct = TestContext.Current.CancellationToken;
        using var work = new TempDirectory();
        var path = Path.Combine(work.Path, Video);
        try
        {
            await SampleVideo.CreateAsync(path, Seconds, ct);
        }
        catch (SampleVideoException ex)
        {
            Assert.Fail(ex.Message + " (tools/test.sh installs ffmpeg)");
        }

        await using var run = await RealClientRun.StartAsync(provider, Job, [(Video, await File.ReadAllBytesAsync(path, ct))], SegmentSize, ct);
        var root = RealClientRun.Root(run);
        var url = $"http://{RealClientRun.User}:{IngestionHost.Password}@{root.Authority}/content/tv/{Job}/{Video}";

        var probe = await ExternalTool.RunCheckedAsync("ffprobe", ["-v", "error", "-show_entries", "format=duration:stream=codec_type", "-of", "json", url], ct);
        var json = JsonDocument.Parse(probe).RootElement;
        var duration = double.Parse(json.GetProperty("format").GetProperty("duration").GetString()!, CultureInfo.InvariantCulture);
        Assert.InRange(duration, Seconds - 0.5, Seconds + 0.5);
        var streams = json.GetProperty("streams").EnumerateArray().Select(s => s.GetProperty("codec_type").GetString()!).Order().ToArray();
        Assert.Equal(["audio", "video"], streams);

        var middle = (Seconds / 2).ToString(CultureInfo.InvariantCulture);
        var decode = await ExternalTool.RunAsync("ffmpeg", ["-nostdin", "-v", "error", "-ss", middle, "-i", url, "-frames:v", "1", "-f", "null", "-"], ct);
        Assert.True(decode.ExitCode == 0, "ffmpeg -ss " + middle + " failed: " + decode.Errors);
        Assert.Equal("", decode.Errors.Trim());
    }
}

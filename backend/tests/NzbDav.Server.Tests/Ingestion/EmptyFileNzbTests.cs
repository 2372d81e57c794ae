using System.Text;
using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Nzb;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.WebDav;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.Ingestion;

/// <summary>
/// Real NZBs carry <c>&lt;file&gt;</c> elements with no segments (an empty .nfo, a broken post) or
/// only malformed ones: the job goes on with the other files, and says which it left out.
/// </summary>
public sealed class EmptyFileNzbTests(MockProviderFixture provider)
{
    private const string Video = "Show.S01E01.1080p.mkv";

    private const string EmptyNfo =
        "<file poster=\"p@x\" date=\"1700000000\" subject=\"[2/3] - &quot;Show.S01E01.nfo&quot; yEnc (1/1)\"><groups><group>alt.binaries.test</group></groups><segments/></file>";

    private const string BrokenSfv =
        "<file poster=\"p@x\" date=\"1700000000\" subject=\"[3/3] - &quot;Show.S01E01.sfv&quot; yEnc (1/2)\"><groups><group>alt.binaries.test</group></groups>"
        + "<segments><segment bytes=\"10\" number=\"1\">bad id@x</segment><segment bytes=\"x\" number=\"2\">ok@x</segment></segments></file>";

    [Fact]
    public async Task Files_without_usable_segments_are_left_out_with_a_logged_reason_and_the_video_streams()
    {
        var ct = TestContext.Current.CancellationToken;
        var video = PostVideo();
        var nzb = WithExtraFiles(NzbFor(video), EmptyNfo + BrokenSfv);
        using var data = new TempDirectory();
        var logs = new LogCapture();
        await using var host = await IngestionHost.StartAsync(data.Path, provider.Port, logs, ct);

        var slot = await host.AddAndWaitAsync(nzb, "Show.S01E01.nzb", ct);

        Assert.Equal("Completed", slot.GetProperty("status").GetString());
        using var response = await host.GetAsync("Show.S01E01", Video, ct);
        Assert.Equal(200, (int)response.StatusCode);
        Assert.Equal(video.ReadExpected(0, (int)video.Size), await response.Content.ReadAsByteArrayAsync(ct));
        var reasons = logs.Entries.Select(e => e.ToDictionary(v => v.Key, v => v.Value)).Where(e => e.ContainsKey("Subject") && e.ContainsKey("Reason")).ToList();
        Assert.Contains(reasons, e => ((string)e["Subject"]!).Contains("Show.S01E01.nfo") && (string)e["Reason"]! == "it has no segments");
        Assert.Contains(reasons, e => ((string)e["Subject"]!).Contains("Show.S01E01.sfv")
            && ((string)e["Reason"]!).StartsWith("every one of its 2 segment(s) is malformed; the first: <segment> number 1 has an invalid message-id", StringComparison.Ordinal));
    }

    [Fact]
    public async Task An_nzb_with_no_usable_file_fails_with_the_reason()
    {
        var ct = TestContext.Current.CancellationToken;
        var nzb = Encoding.UTF8.GetBytes("<?xml version=\"1.0\"?>\n<nzb xmlns=\"http://www.newzbin.com/DTD/2003/nzb\">\n" + EmptyNfo + "\n" + BrokenSfv + "\n</nzb>\n");
        using var data = new TempDirectory();
        await using var host = await IngestionHost.StartAsync(data.Path, provider.Port, ct);

        var slot = await host.AddAndWaitAsync(nzb, "Nothing.nzb", ct);

        Assert.Equal("Failed", slot.GetProperty("status").GetString());
        Assert.StartsWith("Invalid NZB: NZB has no usable file: all 2 <file> element(s) were dropped; the first, \"[2/3] - \"Show.S01E01.nfo\" yEnc (1/1)\", because it has no segments (line 3,",
            slot.GetProperty("fail_message").GetString());
    }

    [Fact]
    public async Task A_video_with_one_malformed_segment_fails_naming_the_file_rather_than_serving_a_hole()
    {
        var ct = TestContext.Current.CancellationToken;
        var video = PostVideo();
        // The last segment's id made invalid: no gap shows in the numbers, the file is still incomplete.
        var last = video.Articles[^1].MessageId;
        var nzb = Encoding.UTF8.GetBytes(Encoding.UTF8.GetString(NzbFor(video)).Replace(last, "not valid", StringComparison.Ordinal));
        using var data = new TempDirectory();
        await using var host = await IngestionHost.StartAsync(data.Path, provider.Port, ct);

        var slot = await host.AddAndWaitAsync(nzb, "Show.S01E01.nzb", ct);

        Assert.Equal("Failed", slot.GetProperty("status").GetString());
        Assert.Contains($"'{Video}' is incomplete: 1 of its <segment> elements are malformed; the first: <segment> number 4 has an invalid message-id",
            slot.GetProperty("fail_message").GetString());
    }

    /// <summary>Posts one four-segment video to the shared provider.</summary>
    private MockFile PostVideo() => provider.Store.AddGeneratedFile(Video, 3 * 50_000 + 17, 50_000);

    private static byte[] NzbFor(MockFile video)
    {
        using var stream = new MemoryStream();
        MockNzbWriter.Write(stream, [video], "Show.S01E01", DateTimeOffset.FromUnixTimeSeconds(1_700_000_000));
        return stream.ToArray();
    }

    private static byte[] WithExtraFiles(byte[] nzb, string files)
    {
        var text = Encoding.UTF8.GetString(nzb);
        var end = text.LastIndexOf("</nzb>", StringComparison.Ordinal);
        return Encoding.UTF8.GetBytes(text[..end] + files + "\n" + text[end..]);
    }
}

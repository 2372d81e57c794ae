using NzbDav.MockNntp;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;

namespace NzbDav.Server.Tests.WebDav;

/// <summary>A GET for a byte range fetches what the range covers, not the stream's usual read-ahead.</summary>
public sealed class RangedReadAheadTests
{
    private const int SegmentSize = 64 * 1024;

    [Theory]
    [InlineData("bytes=0-65535", 0, 1)] // a scanner's header read: the first segment only
    [InlineData("bytes=655360-851967", 10, 3)] // segments 10, 11 and 12
    [InlineData("bytes=-1000", 39, 1)] // the tail: the last segment only
    public async Task A_ranged_get_fetches_only_the_segments_it_covers(string range, int firstSegment, int segments)
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var nntp = new MockNntpServer();
        await nntp.StartAsync(ct);
        var file = nntp.Store.AddGeneratedFile("Show.S01E01.mkv", 40L * SegmentSize, SegmentSize);
        using var nzb = new MemoryStream();
        nntp.WriteNzb(nzb, "x");
        await using var host = await IngestionHost.StartAsync(data.Path, nntp.Port, ct);
        var slot = await host.AddAndWaitAsync(nzb.ToArray(), "Show.S01E01.nzb", ct);
        Assert.Equal("Completed", slot.GetProperty("status").GetString());
        var before = nntp.Stats.GetCommandCount(MockCommandKind.Body);

        using var response = await host.GetAsync("Show.S01E01", "Show.S01E01.mkv", ct, range);
        Assert.Equal(206, (int)response.StatusCode);
        var body = await response.Content.ReadAsByteArrayAsync(ct);
        var from = response.Content.Headers.ContentRange!.From!.Value;
        Assert.Equal(file.ReadExpected(from, body.Length), body);

        // Read-ahead wrongly started for the stream reached the provider before it saw the host go.
        await host.StopAndWaitForProviderAsync(nntp, ct);
        Assert.Equal(segments, nntp.Stats.GetCommandCount(MockCommandKind.Body) - before);
        Assert.Equal(firstSegment, (int)(from / SegmentSize));
    }
}

using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.Archives.Tests.Rar;
using NzbDav.Server.Queue;

namespace NzbDav.Server.Tests.Queue;

/// <summary>How many round trips reading a volume set's headers costs beyond the probed first articles.</summary>
public sealed class ArchiveIngestorTests
{
    private const int SegmentSize = 2000;

    private static readonly TestFile Video = TestFile.Random("video.mkv", 40_000, 21);

    [Fact]
    public async Task Split_rar5_volumes_need_only_the_last_volumes_end()
    {
        var ct = TestContext.Current.CancellationToken;
        var volumes = new InMemoryVolumes(new Rar5TestWriter { DataBytesPerVolume = 5000 }.Write(Video), SegmentSize);
        volumes.Open();

        var files = await new ArchiveIngestor(NullLogger<ArchiveIngestor>.Instance).IngestAsync(volumes.Set, null, volumes, ct);

        var file = Assert.Single(files);
        Assert.Equal("video.mkv", file.Name);
        Assert.Equal(Video.Data.Length, file.Layout!.Length);
        Assert.Equal([InMemoryVolumes.MessageId(7, volumes.ArticleCount(7) - 1)], volumes.Requested);
    }

    [Fact]
    public async Task Volume_ends_that_must_be_read_are_requested_for_every_volume_at_once()
    {
        var ct = TestContext.Current.CancellationToken;
        // Encrypted headers make each end block 32 bytes: too large to be skipped, so every volume's end is read.
        var written = new Rar5TestWriter { Password = "pw", EncryptHeaders = true, DataBytesPerVolume = 5008 }.Write(Video);
        var volumes = new InMemoryVolumes(written, SegmentSize);

        var ingestion = new ArchiveIngestor(NullLogger<ArchiveIngestor>.Instance).IngestAsync(volumes.Set, "pw", volumes, ct);
        // The reader now waits for the first volume's end; the others must already be on their way.
        var waiting = volumes.Requested.ToArray();
        volumes.Open();
        var files = await ingestion;

        Assert.Equal(Video.Data.Length, Assert.Single(files).Layout!.Length);
        var ends = Enumerable.Range(0, written.Length).Select(v => InMemoryVolumes.MessageId(v, volumes.ArticleCount(v) - 1));
        Assert.Equal(ends.Order(), waiting.Order());
    }
}

using System.Text;
using NzbDav.Usenet.Nzb;

namespace NzbDav.Usenet.Tests.Nzb;

public sealed class NzbParserStreamingTests
{
    [Fact]
    public async Task Large_shuffled_nzb_parses_identically_sync_and_async()
    {
        var bytes = Encoding.UTF8.GetBytes(NzbGenerated.Create(files: 20, segmentsPerFile: 5000, shuffled: true));

        var sync = await NzbTestInput.ParseAsync(bytes, useAsync: false);
        var async = await NzbTestInput.ParseAsync(bytes, useAsync: true);

        Assert.Equal(NzbTestInput.Describe(sync), NzbTestInput.Describe(async));
        Assert.Equal(20, sync.Files.Count);
        foreach (var file in sync.Files)
        {
            var segments = file.Segments.Span;
            Assert.Equal(4999, segments.Length);
            Assert.Equal(1, segments[0].Number);
            Assert.StartsWith("part1of5000.AbCdEf123", segments[0].MessageId, StringComparison.Ordinal);
            for (var i = 1; i < segments.Length; i++)
                Assert.True(segments[i - 1].Number < segments[i].Number);
            Assert.Equal([2], file.MissingSegmentNumbers);
        }

        Assert.Equal("Generated.Release.part007.rar", sync.Files[6].FileName);
    }

    [Fact]
    public async Task Hundred_thousand_segments_parse_completely()
    {
        var bytes = Encoding.UTF8.GetBytes(NzbGenerated.Create(files: 100, segmentsPerFile: 1000, shuffled: false));

        var document = await NzbTestInput.ParseAsync(bytes, useAsync: false);

        Assert.Equal(100_000, document.Files.Sum(f => f.Segments.Length));
        Assert.All(document.Files, f => Assert.Empty(f.MissingSegmentNumbers));
        Assert.Equal("part1000of1000.AbCdEf123100@news.example.com", document.Files[^1].Segments.Span[^1].MessageId);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Reads_split_at_every_boundary_give_the_same_result(bool useAsync)
    {
        var bytes = Encoding.UTF8.GetBytes(NzbGenerated.Create(files: 3, segmentsPerFile: 300, shuffled: true));
        var expected = NzbTestInput.Describe(await NzbTestInput.ParseAsync(bytes, useAsync: false));
        var parser = new NzbParser();
        var token = TestContext.Current.CancellationToken;

        using var trickle = new TrickleStream(bytes);
        var document = useAsync ? await parser.ParseAsync(trickle, token) : parser.Parse(trickle, token);

        Assert.Equal(expected, NzbTestInput.Describe(document));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Already_cancelled_token_throws(bool useAsync)
    {
        var parser = new NzbParser();
        using var stream = new MemoryStream(Encoding.UTF8.GetBytes(NzbGenerated.Create(1, 10, shuffled: false)));
        var cancelled = new CancellationToken(canceled: true);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () =>
            _ = useAsync ? await parser.ParseAsync(stream, cancelled) : parser.Parse(stream, cancelled));
        Assert.Equal(0, stream.Position);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Cancellation_during_parsing_stops_it(bool useAsync)
    {
        var parser = new NzbParser();
        using var cts = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        var bytes = Encoding.UTF8.GetBytes(NzbGenerated.Create(10, 1000, shuffled: false));
        using var stream = new TrickleStream(bytes, onRead: reads => { if (reads == 50) cts.Cancel(); });

        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () =>
            _ = useAsync ? await parser.ParseAsync(stream, cts.Token) : parser.Parse(stream, cts.Token));
        // The read that cancelled is the last one served: the next read is refused.
        Assert.Equal(50, stream.Reads);
    }

    [Fact]
    public async Task Cancellation_interrupts_a_stalled_stream()
    {
        var parser = new NzbParser();
        using var cts = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        var head = Encoding.UTF8.GetBytes(NzbTestInput.Prolog + "<nzb><file subject=\"a.bin\"><segments>");
        using var stream = new StallingStream(head);

        var parse = parser.ParseAsync(stream, cts.Token);
        await stream.Stalled.WaitAsync(TestContext.Current.CancellationToken);
        Assert.False(parse.IsCompleted);
        cts.Cancel();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => parse);
    }

    [Fact]
    public async Task Stream_is_left_open()
    {
        using var stream = new MemoryStream(Encoding.UTF8.GetBytes(NzbGenerated.Create(1, 3, shuffled: false)));
        await new NzbParser().ParseAsync(stream, TestContext.Current.CancellationToken);
        Assert.True(stream.CanRead);
    }
}

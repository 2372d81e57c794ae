using NzbDav.MockNntp.Articles;
using NzbDav.Streaming.Combined;
using NzbDav.Streaming.Tests.Support;

namespace NzbDav.Streaming.Tests.Combined;

/// <summary>A combined stream over real BufferedSegmentStreams (mock server, real sockets), like RAR volumes.</summary>
public sealed class CombinedSegmentStreamTests
{
    private const int SegmentSize = 64 * 1024;

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public async Task Random_seeks_across_volume_boundaries_read_the_right_bytes_and_return_every_lease(int maxOpen)
    {
        await using var server = await StreamHarness.StartServerAsync(latency: TimeSpan.FromMilliseconds(1));
        var volumes = new[]
        {
            server.Store.AddGeneratedFile("release.part1.rar", (3 * SegmentSize) + 1234, SegmentSize),
            server.Store.AddGeneratedFile("release.part2.rar", 2 * SegmentSize, SegmentSize),
            server.Store.AddGeneratedFile("release.part3.rar", 5000, SegmentSize),
        };

        // Stored entry layout: a header at the start of the first volume, the tail of the last unused.
        var ranges = new (MockFile File, long Offset, long Length)[]
        {
            (volumes[0], 100, volumes[0].Size - 100),
            (volumes[1], 0, 0),
            (volumes[1], 0, volumes[1].Size),
            (volumes[2], 0, 4000),
        };
        var expected = ranges.SelectMany(r => r.File.ReadExpected(r.Offset, (int)r.Length)).ToArray();
        await using var harness = StreamHarness.Create(new StreamingOptions { ConnectionsPerStream = 4 }, StreamHarness.Provider(server));
        var parts = ranges.Select(r => new CombinedStreamPart(async ct => await harness.Factory.OpenAsync(StreamHarness.ToNzb(r.File), ct), r.Offset, r.Length));
        var random = new Random(maxOpen);

        await using (var stream = new CombinedStream(parts, new CombinedStreamOptions { MaxOpenStreams = maxOpen }))
        {
            Assert.Equal(expected.Length, stream.Length);
            for (var round = 0; round < 40; round++)
            {
                var start = random.Next(0, expected.Length);
                var count = Math.Min(random.Next(1, 3 * SegmentSize), expected.Length - start);
                stream.Position = start;
                var actual = new byte[count];
                await stream.ReadExactlyAsync(actual, StreamHarness.Token);
                Assert.True(expected.AsSpan(start, count).SequenceEqual(actual), $"round {round}: {count} bytes at {start}");
                Assert.InRange(stream.OpenStreamCount, 1, maxOpen);
            }

            stream.Position = 0;
            using var copy = new MemoryStream();
            await stream.CopyToAsync(copy, StreamHarness.Token);
            Assert.Equal(expected, copy.ToArray());
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task Seeking_back_into_an_evicted_volume_reopens_it_instead_of_using_the_disposed_stream()
    {
        await using var server = await StreamHarness.StartServerAsync();
        var first = server.Store.AddGeneratedFile("movie.001", 2 * SegmentSize, SegmentSize);
        var second = server.Store.AddGeneratedFile("movie.002", SegmentSize + 10, SegmentSize);
        await using var harness = StreamHarness.Create(new StreamingOptions { ConnectionsPerStream = 2 }, StreamHarness.Provider(server));
        var opened = new List<BufferedSegmentStream>();
        CombinedStreamPart Part(MockFile file) => new(
            async ct =>
            {
                var stream = await harness.Factory.OpenAsync(StreamHarness.ToNzb(file), ct);
                opened.Add(stream);
                return stream;
            },
            0,
            file.Size);

        await using (var combined = new CombinedStream([Part(first), Part(second)], new CombinedStreamOptions { MaxOpenStreams = 1 }))
        {
            var buffer = new byte[1000];
            foreach (var position in new long[] { 10, first.Size + 5, 20, first.Size + 50, 30 })
            {
                combined.Position = position;
                await combined.ReadExactlyAsync(buffer, StreamHarness.Token);
                var expected = position < first.Size
                    ? first.ReadExpected(position, buffer.Length)
                    : second.ReadExpected(position - first.Size, buffer.Length);
                Assert.Equal(expected, buffer);
            }

            Assert.Equal(5, combined.StreamsOpened);
            Assert.Equal(4, opened.Count(s => !s.CanRead));
        }

        Assert.All(opened, s => Assert.False(s.CanRead));
        await harness.AssertAllReturnedAsync();
    }
}

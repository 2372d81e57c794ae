using NzbDav.Streaming.Combined;

namespace NzbDav.Streaming.Tests.Combined;

public sealed class CombinedStreamReadTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Theory]
    [InlineData(1, true)]
    [InlineData(2, true)]
    [InlineData(3, false)]
    public async Task Random_seeks_and_reads_return_exactly_the_concatenated_ranges(int maxOpen, bool seekable)
    {
        var random = new Random(1234 + maxOpen);
        var parts = new TrackedParts();
        for (var i = 0; i < 7; i++)
        {
            var length = i == 3 ? 0 : random.Next(1, 20_000);
            var offset = random.Next(0, 5_000);
            parts.Add(random, offset + length + random.Next(0, 3_000), offset, length, seekable);
        }

        var expected = parts.Expected;
        await using var stream = new CombinedStream(parts.Parts, new CombinedStreamOptions { MaxOpenStreams = maxOpen });
        Assert.Equal(expected.Length, stream.Length);

        for (var round = 0; round < 300; round++)
        {
            var start = random.Next(0, expected.Length);
            var count = Math.Min(random.Next(1, 30_000), expected.Length - start);
            stream.Position = start;
            var actual = new byte[count];
            await stream.ReadExactlyAsync(actual, Token);
            Assert.True(expected.AsSpan(start, count).SequenceEqual(actual), $"round {round}: {count} bytes at {start}");
            Assert.Equal(start + count, stream.Position);
            Assert.InRange(stream.OpenStreamCount, 1, maxOpen);
        }

        Assert.All(parts.AllOpened, s => Assert.Equal(0, s.ReadsAfterDispose));
    }

    [Fact]
    public async Task A_sequential_copy_yields_the_whole_logical_file()
    {
        var random = new Random(5);
        var parts = new TrackedParts()
            .Add(random, 10_000, 100, 4_096)
            .Add(random, 9_000, 0, 9_000)
            .Add(random, 3_000, 2_999, 1);
        await using var stream = new CombinedStream(parts.Parts);
        using var copy = new MemoryStream();

        await stream.CopyToAsync(copy, 1_000, Token);

        Assert.Equal(parts.Expected, copy.ToArray());
        Assert.Equal(3, stream.StreamsOpened);
    }

    [Fact]
    public async Task A_read_stops_at_a_part_boundary_and_the_next_read_continues_in_the_next_part()
    {
        var random = new Random(6);
        var parts = new TrackedParts().Add(random, 100, 10, 50).Add(random, 100, 0, 100);
        await using var stream = new CombinedStream(parts.Parts);
        var buffer = new byte[80];
        stream.Position = 40;

        var first = await stream.ReadAsync(buffer, Token);
        var second = await stream.ReadAsync(buffer.AsMemory(first), Token);

        Assert.Equal(10, first);
        Assert.Equal(70, second);
        Assert.Equal(parts.Expected.AsSpan(40, 80).ToArray(), buffer);
    }

    [Fact]
    public async Task Zero_length_parts_take_no_bytes_and_are_never_opened()
    {
        var random = new Random(7);
        var parts = new TrackedParts()
            .Add(random, 10, 0, 0)
            .Add(random, 100, 5, 20)
            .Add(random, 10, 10, 0)
            .Add(random, 10, 3, 0)
            .Add(random, 50, 0, 30)
            .Add(random, 10, 0, 0);
        await using var stream = new CombinedStream(parts.Parts);
        var all = new byte[50];

        await stream.ReadExactlyAsync(all, Token);

        Assert.Equal(50, stream.Length);
        Assert.Equal(parts.Expected, all);
        Assert.Equal(0, await stream.ReadAsync(new byte[10], Token));
        foreach (var empty in new[] { 0, 2, 3, 5 })
        {
            Assert.Empty(parts.OpenedFor(empty));
        }
    }

    [Fact]
    public async Task Only_empty_parts_make_an_empty_stream()
    {
        var parts = new TrackedParts().Add(new Random(8), 10, 0, 0).Add(new Random(9), 10, 4, 0);
        await using var stream = new CombinedStream(parts.Parts);

        Assert.Equal(0, stream.Length);
        Assert.Equal(0, await stream.ReadAsync(new byte[4], Token));
        Assert.Empty(parts.AllOpened);
    }

    [Fact]
    public async Task Seeking_past_the_end_is_allowed_and_reads_there_return_zero()
    {
        var parts = new TrackedParts().Add(new Random(10), 100, 0, 100);
        await using var stream = new CombinedStream(parts.Parts);

        Assert.Equal(150, stream.Seek(50, SeekOrigin.End));
        Assert.Equal(0, await stream.ReadAsync(new byte[10], Token));
        Assert.Equal(150, stream.Position);
        Assert.Empty(parts.AllOpened);

        Assert.Equal(99, stream.Seek(-51, SeekOrigin.Current));
        var last = new byte[10];
        Assert.Equal(1, await stream.ReadAsync(last, Token));
        Assert.Equal(parts.Expected[99], last[0]);
    }

    [Fact]
    public async Task Seeking_before_the_beginning_is_an_io_error_and_leaves_the_position()
    {
        var parts = new TrackedParts().Add(new Random(11), 100, 0, 100);
        await using var stream = new CombinedStream(parts.Parts);
        stream.Position = 20;

        Assert.Throws<IOException>(() => stream.Seek(-21, SeekOrigin.Current));
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Position = -1);
        Assert.Equal(20, stream.Position);
    }

    [Fact]
    public async Task Nothing_is_opened_until_the_first_read()
    {
        var parts = new TrackedParts().Add(new Random(12), 100, 0, 100).Add(new Random(13), 100, 0, 100);
        await using var stream = new CombinedStream(parts.Parts);

        stream.Position = 150;
        Assert.Equal(200, stream.Length);
        Assert.Empty(parts.AllOpened);

        Assert.Equal(50, await stream.ReadAsync(new byte[64], Token));
        Assert.Empty(parts.OpenedFor(0));
        Assert.Single(parts.OpenedFor(1));
    }

    [Fact]
    public async Task The_synchronous_read_path_returns_the_same_bytes()
    {
        var parts = new TrackedParts().Add(new Random(14), 300, 20, 200).Add(new Random(15), 100, 0, 100);
        await using var stream = new CombinedStream(parts.Parts);
        var all = new byte[300];

        stream.ReadExactly(all);

        Assert.Equal(parts.Expected, all);
    }
}

using NzbDav.MockNntp;
using NzbDav.Streaming.Tests.Support;
using static NzbDav.Streaming.Tests.Support.StreamHarness;

namespace NzbDav.Streaming.Tests;

/// <summary>Byte-exact reads over real loopback sockets against the mock NNTP server.</summary>
public sealed class StreamReadTests
{
    [Theory]
    [InlineData(10 * 32 * 1024 + 777, 32 * 1024, 7919)]      // ten full parts and a short one, odd reads
    [InlineData(6 * 100 * 1024, 100 * 1024, 256 * 1024)]     // exact multiple; parts span 64 KiB chunk boundaries
    [InlineData(50_000, 100 * 1024, 4096)]                   // a one-segment file
    [InlineData(1, 32 * 1024, 16)]                            // a one-byte file
    [InlineData(3 * 700 * 1024 + 5, 700 * 1024, 256 * 1024)] // real-world part size
    public async Task Reads_the_whole_file_byte_exact(long size, int segmentSize, int readSize)
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("whole.bin", size, segmentSize);
        await using var harness = Create(null, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            Assert.Equal(size, stream.Length);
            Assert.True(stream.Index.IsRegular);
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, readSize, Token);
            Assert.Equal(0, await stream.ReadAsync(new byte[10], Token));
            Assert.Equal(size, stream.Statistics.BytesRead);
            Assert.True(stream.Statistics.BytesFetched >= size);
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task Random_seeks_and_reads_return_the_right_bytes()
    {
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(2));
        var file = server.Store.AddGeneratedFile("seek.bin", (20L * 48 * 1024) + 1234, 48 * 1024);
        await using var harness = Create(null, Provider(server));
        var random = new Random(5);

        await using (var stream = await harness.OpenAsync(file))
        {
            for (var i = 0; i < 60; i++)
            {
                var target = random.NextInt64(0, file.Size + 10);
                var origin = (SeekOrigin)(i % 3);
                var offset = origin switch
                {
                    SeekOrigin.Begin => target,
                    SeekOrigin.Current => target - stream.Position,
                    _ => target - file.Size,
                };
                Assert.Equal(target, stream.Seek(offset, origin));
                await StreamAssert.ReadsExactlyAsync(stream, file, random.Next(1, 150_000), Token);
            }
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task Sync_reads_and_CopyTo_return_the_right_bytes()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("sync.bin", (5L * 40 * 1024) + 99, 40 * 1024);
        await using var harness = Create(null, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            var head = new byte[1000];
            Assert.Equal(1000, stream.Read(head, 0, head.Length));
            StreamAssert.AssertBytes(file, 0, head);
            Span<byte> span = stackalloc byte[300];
            stream.Position = 100_000;
            Assert.Equal(300, stream.Read(span));
            StreamAssert.AssertBytes(file, 100_000, span);

            stream.Position = 0;
            using var copy = new MemoryStream();
            await stream.CopyToAsync(copy, Token);
            StreamAssert.AssertBytes(file, 0, copy.ToArray());
            Assert.Equal(file.Size, copy.Length);
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task Out_of_order_arrival_over_many_connections_is_read_in_order()
    {
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(6), jitter: TimeSpan.FromMilliseconds(5));
        var file = server.Store.AddGeneratedFile("jitter.bin", (64L * 24 * 1024) + 5, 24 * 1024);
        await using var harness = Create(new StreamingOptions { ConnectionsPerStream = 8 }, Provider(server, maxConnections: 8, pipelineDepth: 3));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 10_000, Token);
            Assert.True(stream.Statistics.PeakLeasesHeld > 1, $"expected several connections, saw {stream.Statistics.PeakLeasesHeld}");
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_stream_opened_with_a_known_header_fetches_nothing_until_read()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("known.bin", (4L * 32 * 1024) + 10, 32 * 1024);
        await using var harness = Create(null, Provider(server));
        var header = new Usenet.Yenc.YencHeader(file.Name, file.Size, 128, 1, 5, 0, 32 * 1024);

        await using (var stream = await harness.Factory.OpenAsync(ToNzb(file), header, Token))
        {
            Assert.Equal(0, server.Stats.GetCommandCount(MockCommandKind.Body));
            stream.Position = 70_000;
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 20_000, Token);
        }

        await harness.AssertAllReturnedAsync();
    }
}

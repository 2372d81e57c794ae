using NzbDav.Streaming.Tests.Support;
using static NzbDav.Streaming.Tests.Support.StreamHarness;

namespace NzbDav.Streaming.Tests;

/// <summary>Files whose yEnc parts are not all the same size (the mock posts them with explicit part sizes).</summary>
public sealed class IrregularLayoutTests
{
    [Fact]
    public async Task Parts_of_uneven_sizes_read_byte_exact_sequentially_and_after_seeks()
    {
        int[] sizes = [30_000, 30_000, 30_000, 17_000, 45_000, 30_000, 1_000, 50_000, 30_000, 12_345]; // 10 parts of at most 30 000: looks regular
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(1));
        var file = server.Store.AddFile("uneven.bin", Random(sizes.Sum(), 3), sizes);
        await using var harness = Create(null, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            Assert.True(stream.Index.IsRegular); // the first part and the count look regular...
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 8_000, Token);
            Assert.False(stream.Index.IsRegular); // ...until the fourth part's header said otherwise

            var random = new Random(9);
            for (var i = 0; i < 40; i++)
            {
                stream.Position = random.NextInt64(0, file.Size);
                await StreamAssert.ReadsExactlyAsync(stream, file, random.Next(1, 70_000), Token);
            }
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_seek_into_an_irregular_file_locates_the_part_by_probing()
    {
        int[] sizes = [10_000, 50_000, 5_000, 5_000, 80_000, 20_000, 20_000, 3_000];
        await using var server = await StartServerAsync();
        var file = server.Store.AddFile("probe.bin", Random(sizes.Sum(), 4), sizes);
        await using var harness = Create(null, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            Assert.False(stream.Index.IsRegular); // 8 ids cannot be 10 000-byte parts of a 193 000-byte file
            foreach (var target in new long[] { 150_000, 12_345, 190_500, 70_000, 0, 64_999, 65_000 })
            {
                stream.Position = target;
                await StreamAssert.ReadsExactlyAsync(stream, file, 9_000, Token);
            }
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_part_missing_from_the_nzb_is_a_layout_error_not_silent_data()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("holed.bin", 6L * 20_000, 20_000);
        await using var harness = Create(null, Provider(server));

        await using (var stream = await harness.Factory.OpenAsync(ToNzb(file, withoutNumbers: 3), Token))
        {
            await StreamAssert.ReadsExactlyAsync(stream, file, 40_000, Token);
            var error = await Assert.ThrowsAsync<SegmentLayoutException>(() => stream.ReadAsync(new byte[100], Token).AsTask());
            Assert.Contains("40000..60000", error.Message);

            stream.Position = 65_000;
            await StreamAssert.ReadsExactlyAsync(stream, file, 5_000, Token);
        }

        await harness.AssertAllReturnedAsync();
    }

    private static byte[] Random(int size, int seed)
    {
        var data = new byte[size];
        new Random(seed).NextBytes(data);
        return data;
    }
}

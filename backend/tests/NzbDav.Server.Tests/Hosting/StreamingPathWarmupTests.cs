using NzbDav.Server.Hosting;
using NzbDav.Streaming;

namespace NzbDav.Server.Tests.Hosting;

public sealed class StreamingPathWarmupTests
{
    [Fact]
    public async Task The_warm_up_reads_its_private_file_through_the_real_opener_twice()
    {
        var read = await StreamingPathWarmup.RunAsync(new StreamingOptions(), TestContext.Current.CancellationToken);

        // 16 segments of 64 KiB, twice, plus one 16 KiB read after each seek.
        Assert.Equal(2 * ((16 * 64 * 1024) + (16 * 1024)), read);
    }

    [Fact]
    public async Task A_cancelled_warm_up_stops()
    {
        using var cancelled = new CancellationTokenSource();
        await cancelled.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => StreamingPathWarmup.RunAsync(new StreamingOptions(), cancelled.Token));
    }
}

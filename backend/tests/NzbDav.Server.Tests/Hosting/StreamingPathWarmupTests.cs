using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using NzbDav.Server.Hosting;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Streaming;

namespace NzbDav.Server.Tests.Hosting;

public sealed class StreamingPathWarmupTests
{
    [Fact]
    public async Task The_warm_up_reads_its_private_file_through_the_real_opener_twice()
    {
        var read = await StreamingPathWarmup.RunAsync(new StreamingOptions(), TimeProvider.System, TestContext.Current.CancellationToken);

        // 16 segments of 64 KiB, twice, plus one 16 KiB read after each seek.
        Assert.Equal(2 * ((16 * 64 * 1024) + (16 * 1024)), read);
    }

    [Fact]
    public async Task A_cancelled_warm_up_stops()
    {
        using var cancelled = new CancellationTokenSource();
        await cancelled.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => StreamingPathWarmup.RunAsync(new StreamingOptions(), TimeProvider.System, cancelled.Token));
    }

    [Fact]
    public async Task The_host_warms_the_streaming_path_at_start_even_without_providers()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();

        // No provider and no mock: the warm-up's sessions are in memory.
        await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct);
        var warmup = server.Services.GetServices<IHostedService>().OfType<StartupWarmup>().Single();

        Assert.True(await warmup.Streaming.WaitAsync(ct));

        // The stream factory's chunk pool was filled to the read-ahead budget: nothing is left to allocate.
        var streams = server.Services.GetRequiredService<NzbFileStreamFactory>();
        Assert.Equal(0, streams.WarmBuffers(ct));
    }
}

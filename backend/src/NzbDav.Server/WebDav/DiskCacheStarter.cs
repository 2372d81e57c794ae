using NzbDav.Streaming.Disk;

namespace NzbDav.Server.WebDav;

/// <summary>Opens the disk segment cache before the server listens (so the first read after a restart finds what earlier runs kept) and closes it last.</summary>
internal sealed class DiskCacheStarter(DiskSegmentCache cache) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken) => cache.StartAsync(cancellationToken);

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}

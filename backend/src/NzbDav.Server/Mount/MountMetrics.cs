using System.Diagnostics.Metrics;
using NzbDav.Server.Monitoring;

namespace NzbDav.Server.Mount;

/// <summary>The managed mount in the metrics: up or not, restarts, the VFS cache's use, folder refreshes by outcome.</summary>
public sealed class MountMetrics
{
    private readonly Counter<long> _refreshes;

    public MountMetrics(IMeterFactory meterFactory, MountState state)
    {
        ArgumentNullException.ThrowIfNull(meterFactory);
        ArgumentNullException.ThrowIfNull(state);
        var meter = meterFactory.Create(IngestionMetrics.MeterName);
        meter.CreateObservableGauge("nzbdav.mount.up", () => state.Current.Phase == MountPhase.Mounted ? 1 : 0,
            "{mount}", "1 while the managed rclone mount is mounted; 0 when it is off, starting or failed");
        meter.CreateObservableCounter("nzbdav.mount.restarts", () => (long)state.Current.Restarts,
            "{restart}", "Times the managed mount was started again after rclone exited or failed to mount");
        meter.CreateObservableGauge("nzbdav.mount.cache", () => state.Current.CacheBytes ?? 0,
            "By", "Bytes in rclone's VFS disk cache, as rclone last reported it");
        _refreshes = meter.CreateCounter<long>("nzbdav.mount.refreshes", "{refresh}", "Folder refreshes sent to rclone after library changes, by outcome");
    }

    internal void Refreshed(bool ok) => _refreshes.Add(1, new KeyValuePair<string, object?>("outcome", ok ? "ok" : "failed"));
}

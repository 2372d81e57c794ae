using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace NzbDav.Streaming.Disk;

/// <summary>
/// The disk segment cache as the settings say now: the open <see cref="DiskSegmentStore"/> (null
/// while <c>Cache:Path</c> is empty or until <see cref="StartAsync"/> ran), opened again on a new
/// path, resized in place on a new size. Streams take the store in force when they open.
/// </summary>
public sealed partial class DiskSegmentCache : IAsyncDisposable
{
    private readonly IOptionsMonitor<DiskSegmentStoreOptions> _options;
    private readonly ILogger<DiskSegmentCache> _logger;
    private readonly TimeProvider _time;
    private readonly SemaphoreSlim _switching = new(1, 1);
    private readonly CancellationTokenSource _stopping = new();
    private IDisposable? _subscription;
    private DiskSegmentStore? _store;

    public DiskSegmentCache(IOptionsMonitor<DiskSegmentStoreOptions> options, ILogger<DiskSegmentCache> logger, TimeProvider time)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(logger);
        ArgumentNullException.ThrowIfNull(time);
        _options = options;
        _logger = logger;
        _time = time;
    }

    /// <summary>The store in force, or null while the disk cache is off.</summary>
    public DiskSegmentStore? Store => Volatile.Read(ref _store);

    /// <summary>Opens the store the settings name (indexing what an earlier run left) and follows their changes.</summary>
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        await ApplyAsync(_options.CurrentValue, cancellationToken).ConfigureAwait(false);
        _subscription ??= _options.OnChange(options => _ = ApplyAsync(options, _stopping.Token));
    }

    /// <summary>Brings the store in line with <paramref name="options"/>: off, resized, or opened at a new path.</summary>
    public async Task ApplyAsync(DiskSegmentStoreOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        try
        {
            await _switching.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            return;
        }
        try
        {
            var current = Store;
            var path = options.Enabled ? Path.GetFullPath(options.Path) : null;
            if (current is not null && path is not null && string.Equals(Path.GetFullPath(current.Path), path, StringComparison.Ordinal))
            {
                current.MaxBytes = options.MaxBytes;
                return;
            }
            DiskSegmentStore? next = null;
            if (path is not null)
            {
                next = await DiskSegmentStore.OpenAsync(options, _logger, _time, cancellationToken).ConfigureAwait(false);
                LogOpened(_logger, path, next.Count, next.Bytes, options.MaxBytes);
            }
            else if (current is not null)
            {
                LogOff(_logger);
            }
            Volatile.Write(ref _store, next);
            if (current is not null)
            {
                await current.DisposeAsync().ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException)
        {
        }
        finally
        {
            _switching.Release();
        }
    }

    public async ValueTask DisposeAsync()
    {
        _subscription?.Dispose();
        await _stopping.CancelAsync().ConfigureAwait(false);
        await _switching.WaitAsync().ConfigureAwait(false);
        try
        {
            if (Interlocked.Exchange(ref _store, null) is { } store)
            {
                await store.DisposeAsync().ConfigureAwait(false);
            }
        }
        finally
        {
            _switching.Release();
        }
        _stopping.Dispose();
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Disk segment cache at {Path}: {Segments} segments ({Bytes} bytes) kept from earlier runs, at most {MaxBytes} bytes")]
    private static partial void LogOpened(ILogger logger, string path, int segments, long bytes, long maxBytes);

    [LoggerMessage(Level = LogLevel.Information, Message = "Disk segment cache off: no Cache:Path is set")]
    private static partial void LogOff(ILogger logger);
}

using System.Buffers;
using System.Diagnostics;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using NzbDav.Streaming.Disk;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Traffic;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming;

/// <summary>
/// Opens <see cref="BufferedSegmentStream"/>s over NZB files. Register it as a singleton: its
/// buffer pool is shared by every stream it opens, so memory is reused across streams.
/// </summary>
public sealed class NzbFileStreamFactory
{
    private readonly UsenetClient _client;
    private readonly IOptionsMonitor<StreamingOptions> _options;
    private readonly ILogger<BufferedSegmentStream> _logger;
    private readonly ArrayPool<byte> _pool;
    private readonly ChunkPool? _chunks;
    private readonly StreamingMetrics? _metrics;
    private readonly DiskSegmentCache? _disk;

    /// <summary>
    /// Creates a factory over <paramref name="client"/>'s streaming pool. Every stream takes the
    /// settings in force when it opens, so a change applies to the next playback. Its streams count
    /// themselves in <paramref name="metrics"/> when given.
    /// </summary>
    public NzbFileStreamFactory(UsenetClient client, IOptionsMonitor<StreamingOptions> options, ILoggerFactory loggerFactory, StreamingMetrics? metrics = null, DiskSegmentCache? disk = null)
        : this(client, options, loggerFactory, null, metrics, disk)
    {
    }

    /// <summary>A factory with fixed settings (tools and tests).</summary>
    public NzbFileStreamFactory(UsenetClient client, StreamingOptions options, ILoggerFactory loggerFactory, StreamingMetrics? metrics = null, DiskSegmentCache? disk = null)
        : this(client, new FixedOptionsMonitor<StreamingOptions>(options), loggerFactory, null, metrics, disk)
    {
    }

    internal NzbFileStreamFactory(UsenetClient client, StreamingOptions options, ILoggerFactory loggerFactory, ArrayPool<byte>? bufferPool, StreamingMetrics? metrics = null, DiskSegmentCache? disk = null)
        : this(client, new FixedOptionsMonitor<StreamingOptions>(options), loggerFactory, bufferPool, metrics, disk)
    {
    }

    private NzbFileStreamFactory(UsenetClient client, IOptionsMonitor<StreamingOptions> options, ILoggerFactory loggerFactory, ArrayPool<byte>? bufferPool, StreamingMetrics? metrics, DiskSegmentCache? disk)
    {
        ArgumentNullException.ThrowIfNull(client);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(loggerFactory);
        options.CurrentValue.Validate();
        _client = client;
        _options = options;
        _logger = loggerFactory.CreateLogger<BufferedSegmentStream>();
        var chunks = bufferPool is null ? new ChunkPool(() => _options.CurrentValue.MemoryBudgetBytes) : null;
        _chunks = chunks;
        _pool = bufferPool ?? chunks!;
        _metrics = metrics;
        _disk = disk;
        Cache = new SegmentCache(() => _options.CurrentValue.SegmentCacheBytes);
        Budget = new ReadAheadBudget(() => _options.CurrentValue.ReadAheadBudgetBytes, client.Time);
        metrics?.Observe(Cache, Budget, chunks, disk);
    }

    /// <summary>
    /// Fills the chunk pool up to the read-ahead budget (48 MiB by default) ahead of the first
    /// stream; returns the chunks allocated (0 when a pool was supplied or it is full). The pages
    /// become resident as segments are decoded into them, as they would anyway; what this moves
    /// out of the first playback is the pinned allocation itself (see <see cref="ChunkPool.Warm"/>).
    /// </summary>
    public int WarmBuffers(CancellationToken cancellationToken) =>
        _chunks?.Warm(_options.CurrentValue.ReadAheadBudgetBytes, cancellationToken) ?? 0;

    /// <summary>The ceiling every stream's read-ahead shares.</summary>
    public ReadAheadBudget Budget { get; }

    /// <summary>Segments shared by every stream this factory opens.</summary>
    public SegmentCache Cache { get; }

    /// <summary>False while no Usenet provider is in force: nothing could be streamed.</summary>
    public bool HasProviders => _client.ProviderCount > 0;

    /// <summary>
    /// Opens a stream over <paramref name="file"/>, fetching its first segment to learn the file and
    /// part size (that segment's data is kept: reading from the start costs no second fetch).
    /// </summary>
    /// <exception cref="SegmentUnavailableException">The first segment could not be fetched.</exception>
    /// <exception cref="YencException">The first segment's header cannot describe a file.</exception>
    public Task<BufferedSegmentStream> OpenAsync(NzbFile file, CancellationToken cancellationToken) => OpenAsync(file, (TrafficAccount?)null, cancellationToken);

    /// <summary>As above, every byte read from providers for the stream counted for <paramref name="account"/> (the streaming account when null).</summary>
    public Task<BufferedSegmentStream> OpenAsync(NzbFile file, TrafficAccount? account, CancellationToken cancellationToken) =>
        OpenAsync(file, account, OperationKind.Streaming, cancellationToken);

    /// <summary>
    /// As <see cref="OpenAsync(NzbFile, TrafficAccount?, CancellationToken)"/>, its fetches drawn
    /// from <paramref name="kind"/>'s pool (a repair reads on the health-check pool, behind playback).
    /// </summary>
    public async Task<BufferedSegmentStream> OpenAsync(NzbFile file, TrafficAccount? account, OperationKind kind, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(file);
        var first = file.Segments.Span[0];
        var statistics = new StreamStatistics();
        if (Cache.TryTake(first.MessageId) is { } cached)
        {
            // Probed before (a scanner, a player's last open): the layout is known without a fetch.
            try
            {
                statistics.AddShared(cached.Size);
                return Create(SegmentIndex.For(file, cached.Header!), statistics, cached, null, account: account, kind: kind);
            }
            finally
            {
                cached.Release();
            }
        }
        var disk = _disk?.Store;
        if (disk is not null && disk.Contains(first.MessageId)
            && await disk.ReadAsync(first.MessageId, _pool, cancellationToken).ConfigureAwait(false) is { } stored)
        {
            try
            {
                var index = SegmentIndex.For(file, stored.Header!);
                statistics.AddFromDisk(stored.Size);
                _metrics?.FromDisk(stored.Size);
                return Create(index, statistics, stored, null, disk: disk, account: account, kind: kind);
            }
            catch (SegmentLayoutException)
            {
                // A copy that contradicts the file: fetched from the providers, whose copy replaces it.
                disk.Remove(first.MessageId);
            }
            finally
            {
                stored.Release();
            }
        }
        var attempts = new List<SegmentBuffer>(1);
        var started = Stopwatch.GetTimestamp();
        SegmentBuffer? kept = null;
        try
        {
            await _client.BodyAsync(first.MessageId, () =>
            {
                var buffer = new SegmentBuffer(_pool, null, statistics);
                attempts.Add(buffer);
                return buffer;
            }, kind, account, cancellationToken).ConfigureAwait(false);
            kept = attempts.Find(static b => b.IsCompleted);
            kept?.AddReference();
            if (kept is not null)
            {
                disk?.Write(first.MessageId, kept, DiskSegmentKind.Probe);
            }
        }
        catch (Exception error) when (error is ArticleMissingException or ArticleFetchFailedException or NoProviderAvailableException)
        {
            throw new SegmentUnavailableException(first.Number, first.MessageId, error.Message, error);
        }
        finally
        {
            foreach (var buffer in attempts)
            {
                if (!buffer.IsCompleted)
                {
                    statistics.AddFetched(buffer.Written);
                }
                buffer.Release();
            }
        }
        try
        {
            var index = SegmentIndex.For(file, kept!.Header!);
            return Create(index, statistics, kept, Stopwatch.GetElapsedTime(started), disk: disk, account: account, kind: kind);
        }
        finally
        {
            kept!.Release();
        }
    }

    /// <summary>Opens a stream over <paramref name="file"/> whose first segment's header is already known (nothing is fetched now).</summary>
    public Task<BufferedSegmentStream> OpenAsync(NzbFile file, YencHeader firstHeader, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(file);
        ArgumentNullException.ThrowIfNull(firstHeader);
        cancellationToken.ThrowIfCancellationRequested();
        return Task.FromResult(Create(SegmentIndex.For(file, firstHeader), new StreamStatistics(), null, null));
    }

    /// <summary>
    /// Opens a stream over a file whose layout is already known (stored at ingestion): its
    /// message-ids in part order, decoded size and decoded bytes per part. Nothing is fetched now;
    /// every part header fetched later is still checked against this layout.
    /// </summary>
    /// <param name="holes">Confirmed-missing segments to serve as zeros without fetching (a Degraded file); null for none.</param>
    /// <param name="ranged">
    /// The reader asked for a byte range (a mount, a player, a probe): a first read at the start asks
    /// for <see cref="StreamingOptions.RangedStartReadAheadBytes"/>, not the full start read-ahead
    /// (as does any stream opened while another is reading).
    /// </param>
    /// <param name="account">Who the stream's provider bytes are for (the streaming account when null).</param>
    /// <param name="kind">The pool the stream's fetches draw from: streaming, or health-check for a repair's reads.</param>
    public BufferedSegmentStream Open(IReadOnlyList<string> messageIds, long fileSize, long partSize, SegmentHoles? holes = null, bool ranged = false, TrafficAccount? account = null, OperationKind kind = OperationKind.Streaming)
    {
        ArgumentNullException.ThrowIfNull(messageIds);
        ArgumentOutOfRangeException.ThrowIfNegative(fileSize);
        ArgumentOutOfRangeException.ThrowIfNegative(partSize);
        var firstPart = Math.Min(partSize, fileSize);
        var header = new YencHeader(string.Empty, fileSize, 128, messageIds.Count > 1 ? 1 : null, messageIds.Count, 0, firstPart);
        return Create(new SegmentIndex(messageIds, header), new StreamStatistics(), null, null, holes, ranged, account: account, kind: kind);
    }

    private BufferedSegmentStream Create(SegmentIndex index, StreamStatistics statistics, SegmentBuffer? firstSegment, TimeSpan? firstFetch, SegmentHoles? holes = null, bool ranged = false, DiskSegmentStore? disk = null, TrafficAccount? account = null, OperationKind kind = OperationKind.Streaming)
    {
        disk ??= _disk?.Store;
        var options = _options.CurrentValue;
        // The full start read-ahead is for a reader alone: with other streams reading, a whole-file
        // GET starts like a ranged one and grows by need, so ten players starting together do not
        // each claim the burst a lone copy wants (memory, and the others' connections).
        if (ranged || Budget.Claimants > 0)
        {
            options = options with { StartReadAheadBytes = Math.Min(options.StartReadAheadBytes, options.RangedStartReadAheadBytes) };
        }
        // Off the streaming pool (a repair's reads) nobody waits on one segment: no straggler races.
        var fetchOptions = options.ToFetchGroupOptions(firstFetch) with { Account = account };
        if (kind != OperationKind.Streaming)
            fetchOptions = fetchOptions with { Kind = kind, RaceStragglers = false };
        var group = _client.OpenGroup(fetchOptions, _logger, statistics.Fetching);
        // The client's clock: the reader's rate is measured on the same clock its fetches are raced on.
        return new BufferedSegmentStream(index, new GroupSegmentFetcher(group), options, statistics, firstSegment, _pool, Cache, Budget, _client.Time, _metrics, holes, _logger, disk);
    }
}

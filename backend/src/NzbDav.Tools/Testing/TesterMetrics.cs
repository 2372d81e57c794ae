using NzbDav.Server.Monitoring;
using NzbDav.Streaming;
using NzbDav.Usenet.Metrics;
using Prometheus;

namespace NzbDav.Tools.Testing;

/// <summary>
/// The meters and the Prometheus export for <c>--test-full-nzb --scrape-metrics-ms</c>, which has no
/// web host: the same instruments and bridge as the server's, in a container of their own, and a
/// scrape that collects the registry into the void as the endpoint would into a response.
/// </summary>
internal sealed class TesterMetrics : IAsyncDisposable
{
    private readonly ServiceProvider _services;

    private TesterMetrics(ServiceProvider services)
    {
        _services = services;
        Usenet = services.GetRequiredService<UsenetMetrics>();
        Streaming = services.GetRequiredService<StreamingMetrics>();
        services.GetRequiredService<PrometheusMeterBridge>();
    }

    public UsenetMetrics Usenet { get; }

    public StreamingMetrics Streaming { get; }

    public static TesterMetrics Create()
    {
        var services = new ServiceCollection();
        services.AddMetrics();
        services.AddSingleton(static _ =>
        {
            var registry = Prometheus.Metrics.NewCustomRegistry();
            DotNetStats.Register(registry);
            return registry;
        });
        services.AddSingleton<UsenetMetrics>();
        services.AddSingleton<StreamingMetrics>();
        services.AddSingleton<PrometheusMeterBridge>();
        return new TesterMetrics(services.BuildServiceProvider());
    }

    /// <summary>One scrape's worth of work: collect and serialise every metric; returns the bytes written.</summary>
    public async Task<long> ScrapeAsync(CancellationToken cancellationToken)
    {
        await using var sink = new CountingStream();
        await _services.GetRequiredService<CollectorRegistry>().CollectAndExportAsTextAsync(sink, cancellationToken);
        return sink.Length;
    }

    public ValueTask DisposeAsync() => _services.DisposeAsync();

    /// <summary>Counts what is written and keeps none of it.</summary>
    private sealed class CountingStream : Stream
    {
        private long _length;

        public override bool CanRead => false;

        public override bool CanSeek => false;

        public override bool CanWrite => true;

        public override long Length => _length;

        public override long Position { get => _length; set => throw new NotSupportedException(); }

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => _length += count;

        public override void Write(ReadOnlySpan<byte> buffer) => _length += buffer.Length;

        public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
        {
            _length += buffer.Length;
            return ValueTask.CompletedTask;
        }
    }
}

using System.IO.Pipelines;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http.Features;

namespace NzbDav.Server.Tests.WebDav;

/// <summary>
/// Counts response flushes that have to wait: Kestrel holds a flush while more than its response
/// buffer is unsent, so a waiting flush is the server being held back by a client that stopped
/// reading. A test can wait for that instead of waiting for the server's reads to come to rest.
/// </summary>
public sealed class ResponseFlushWatch : IStartupFilter
{
    private int _waiting;

    /// <summary>Flushes of any response that are waiting for the client now.</summary>
    public int Waiting => Volatile.Read(ref _waiting);

    public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
    {
        app.Use((context, nextMiddleware) =>
        {
            var body = context.Features.Get<IHttpResponseBodyFeature>()!;
            context.Features.Set<IHttpResponseBodyFeature>(new WatchedBody(body, new WatchedWriter(body.Writer, this)));
            return nextMiddleware(context);
        });
        next(app);
    };

    private sealed class WatchedBody(IHttpResponseBodyFeature inner, PipeWriter writer) : IHttpResponseBodyFeature
    {
        public Stream Stream => inner.Stream;

        public PipeWriter Writer => writer;

        public void DisableBuffering() => inner.DisableBuffering();

        public Task StartAsync(CancellationToken cancellationToken = default) => inner.StartAsync(cancellationToken);

        public Task SendFileAsync(string path, long offset, long? count, CancellationToken cancellationToken = default) =>
            inner.SendFileAsync(path, offset, count, cancellationToken);

        public Task CompleteAsync() => inner.CompleteAsync();
    }

    private sealed class WatchedWriter(PipeWriter inner, ResponseFlushWatch watch) : PipeWriter
    {
        public override bool CanGetUnflushedBytes => inner.CanGetUnflushedBytes;

        public override long UnflushedBytes => inner.UnflushedBytes;

        public override void Advance(int bytes) => inner.Advance(bytes);

        public override Memory<byte> GetMemory(int sizeHint = 0) => inner.GetMemory(sizeHint);

        public override Span<byte> GetSpan(int sizeHint = 0) => inner.GetSpan(sizeHint);

        public override void CancelPendingFlush() => inner.CancelPendingFlush();

        public override void Complete(Exception? exception = null) => inner.Complete(exception);

        public override ValueTask CompleteAsync(Exception? exception = null) => inner.CompleteAsync(exception);

        public override ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default)
        {
            var flush = inner.FlushAsync(cancellationToken);
            return flush.IsCompleted ? flush : WaitAsync(flush);
        }

        private async ValueTask<FlushResult> WaitAsync(ValueTask<FlushResult> flush)
        {
            Interlocked.Increment(ref watch._waiting);
            try
            {
                return await flush;
            }
            finally
            {
                Interlocked.Decrement(ref watch._waiting);
            }
        }
    }
}

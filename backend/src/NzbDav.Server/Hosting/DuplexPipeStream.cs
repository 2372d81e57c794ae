using System.Buffers;
using System.IO.Pipelines;

namespace NzbDav.Server.Hosting;

/// <summary>
/// One end of an in-memory connection: reads what the other end wrote to <paramref name="input"/>,
/// writes to <paramref name="output"/> for the other end to read. Disposing it completes both
/// pipes, which the other end sees as the connection closing.
/// </summary>
internal sealed class DuplexPipeStream(PipeReader input, PipeWriter output) : Stream
{
    public override bool CanRead => true;

    public override bool CanWrite => true;

    public override bool CanSeek => false;

    public override long Length => throw new NotSupportedException("A connection has no length.");

    public override long Position
    {
        get => throw new NotSupportedException("A connection has no position.");
        set => throw new NotSupportedException("A connection has no position.");
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        var result = await input.ReadAsync(cancellationToken);
        var available = result.Buffer;
        var count = (int)Math.Min(available.Length, buffer.Length);
        available.Slice(0, count).CopyTo(buffer.Span);
        input.AdvanceTo(available.GetPosition(count));
        return count;
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default) =>
        await output.WriteAsync(buffer, cancellationToken);

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override async Task FlushAsync(CancellationToken cancellationToken) => await output.FlushAsync(cancellationToken);

    // The NNTP session only ever calls the asynchronous members.
    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException("Read asynchronously.");

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException("Write asynchronously.");

    public override void Flush()
    {
        // Every write is flushed by WriteAsync; nothing is held here.
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException("A connection cannot seek.");

    public override void SetLength(long value) => throw new NotSupportedException("A connection has no length.");

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            input.Complete();
            output.Complete();
        }

        base.Dispose(disposing);
    }

    public override async ValueTask DisposeAsync()
    {
        await input.CompleteAsync();
        await output.CompleteAsync();
        await base.DisposeAsync();
    }
}

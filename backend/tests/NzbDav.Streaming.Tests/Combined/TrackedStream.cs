namespace NzbDav.Streaming.Tests.Combined;

/// <summary>
/// A MemoryStream view that records disposal and fails loudly if used afterwards; optionally
/// forward-only, optionally ending early (to model an inner stream shorter than its part claims).
/// </summary>
internal sealed class TrackedStream(byte[] data, bool seekable = true, int? endAfter = null) : Stream
{
    private readonly MemoryStream _inner = new(data, writable: false);

    public bool IsDisposed { get; private set; }

    public int ReadsAfterDispose { get; private set; }

    public override bool CanRead => !IsDisposed;

    public override bool CanSeek => seekable && !IsDisposed;

    public override bool CanWrite => false;

    public override long Length => seekable ? Checked()._inner.Length : throw new NotSupportedException();

    public override long Position
    {
        get => seekable ? Checked()._inner.Position : throw new NotSupportedException();
        set
        {
            if (!seekable)
            {
                throw new NotSupportedException();
            }

            Checked()._inner.Position = value;
        }
    }

    public override int Read(byte[] buffer, int offset, int count)
    {
        if (IsDisposed)
        {
            ReadsAfterDispose++;
            throw new ObjectDisposedException(nameof(TrackedStream));
        }

        if (endAfter is { } limit)
        {
            count = (int)Math.Min(count, Math.Max(0, limit - _inner.Position));
        }

        return _inner.Read(buffer, offset, count);
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        Task.FromResult(Read(buffer, offset, count));

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        cancellationToken.ThrowIfCancellationRequested();
        var array = new byte[buffer.Length];
        var read = Read(array, 0, array.Length);
        array.AsSpan(0, read).CopyTo(buffer.Span);
        return ValueTask.FromResult(read);
    }

    public override long Seek(long offset, SeekOrigin origin) =>
        seekable ? Checked()._inner.Seek(offset, origin) : throw new NotSupportedException();

    public override void Flush()
    {
    }

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        IsDisposed = true;
        _inner.Dispose();
        base.Dispose(disposing);
    }

    private TrackedStream Checked()
    {
        ObjectDisposedException.ThrowIf(IsDisposed, this);
        return this;
    }
}

using NzbDav.Data.Entities;
using NzbDav.Server.WebDav;

namespace NzbDav.Server.Tests.WebDav;

/// <summary>Test <see cref="IDavFileOpener"/>: every library file is <see cref="PatternStream"/> bytes of its size.</summary>
public sealed class PatternFileOpener : IDavFileOpener
{
    private int _open;

    /// <summary>Completed the first time an opened stream is disposed.</summary>
    public TaskCompletionSource FirstDisposed { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public int OpenStreams => Volatile.Read(ref _open);

    /// <summary>The stream opened last (its position shows how far the server has read).</summary>
    public PatternStream? LastOpened { get; private set; }

    public Task<Stream> OpenAsync(DavItem item, long readEnd, bool ranged, CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref _open);
        var stream = new PatternStream(item.Size, () =>
        {
            Interlocked.Decrement(ref _open);
            FirstDisposed.TrySetResult();
        });
        LastOpened = stream;
        return Task.FromResult<Stream>(stream);
    }
}

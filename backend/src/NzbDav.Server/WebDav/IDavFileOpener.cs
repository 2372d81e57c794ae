using NzbDav.Data.Entities;

namespace NzbDav.Server.WebDav;

/// <summary>Opens the bytes of a library file (a <see cref="DavItem"/> that is not a directory) for GET.</summary>
public interface IDavFileOpener
{
    /// <summary>
    /// A readable, seekable stream whose <see cref="Stream.Length"/> is exactly <see cref="DavItem.Size"/>.
    /// The caller disposes it as soon as the response ends or the client goes away. The caller will
    /// not read past <paramref name="readEnd"/> (exclusive; the size for a whole-file GET), so
    /// nothing beyond it need be fetched ahead; reads past it must still work. A
    /// <paramref name="ranged"/> read (a GET with a Range header: a mount, a player, a probe) starts
    /// with a small read-ahead that grows if the reader drains it; a whole-file read (a download)
    /// starts with the full one.
    /// </summary>
    Task<Stream> OpenAsync(DavItem item, long readEnd, bool ranged, CancellationToken cancellationToken);

    /// <summary>As above, every byte read from providers for the stream counted for <paramref name="account"/> (an opener that fetches nothing ignores it).</summary>
    Task<Stream> OpenAsync(DavItem item, long readEnd, bool ranged, NzbDav.Usenet.Traffic.TrafficAccount? account, CancellationToken cancellationToken) =>
        OpenAsync(item, readEnd, ranged, cancellationToken);
}

using NzbDav.Archives.Crypto;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;
using NzbDav.Streaming;
using NzbDav.Streaming.Combined;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.WebDav;

/// <summary>
/// Streams library files from their stored layout: one <see cref="BufferedSegmentStream"/> per
/// layout part (sizes known from the layout, so opening fetches nothing), cut to the part's range
/// and joined by a <see cref="CombinedStream"/>; encrypted entries are decrypted on the fly.
/// </summary>
public sealed class LayoutDavFileOpener(IServiceProvider services) : IDavFileOpener
{
    /// <inheritdoc />
    public Task<Stream> OpenAsync(DavItem item, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(item);
        cancellationToken.ThrowIfCancellationRequested();
        if (item.IsDirectory || item.Layout is null)
            throw new ArgumentException($"'{item.Path}' is not a library file.", nameof(item));

        // The factory needs the Usenet client, which exists only when providers are configured.
        if (services.GetService<UsenetClient>() is null)
            throw new IOException("No Usenet provider is configured (Usenet:Providers); library files cannot be streamed.");
        var factory = services.GetRequiredService<NzbFileStreamFactory>();
        var layout = DavFileLayoutCodec.Decode(item.Layout);
        if (layout.Length != item.Size)
            throw new LayoutFormatException($"'{item.Path}' is {item.Size} bytes but its layout describes {layout.Length}.");

        var parts = layout.Parts.Select(part => new CombinedStreamPart(
            _ => ValueTask.FromResult<Stream>(factory.Open(part.MessageIds, part.FileSize, part.PartSize)),
            part.RangeOffset,
            part.RangeLength));
        Stream stream = new CombinedStream(parts);
        if (layout.Encryption is { } encryption)
            stream = new AesCbcDecryptingStream(stream, encryption.Key, encryption.Iv, encryption.PlaintextLength, leaveOpen: false);
        return Task.FromResult(stream);
    }
}

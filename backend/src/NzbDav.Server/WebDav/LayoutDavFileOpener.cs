using NzbDav.Usenet.Traffic;
using NzbDav.Archives.Crypto;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;
using NzbDav.Server.Health;
using NzbDav.Server.Health.Par2;
using NzbDav.Streaming;
using NzbDav.Streaming.Combined;

namespace NzbDav.Server.WebDav;

/// <summary>
/// Streams library files from their stored layout (decoded once, cached): a plain file is its one
/// <see cref="BufferedSegmentStream"/> as it is; a file inside archive volumes is one stream per
/// layout part (sizes known from the layout, so opening fetches nothing), cut to the part's range
/// and joined by a <see cref="CombinedStream"/>; encrypted entries are decrypted on the fly.
/// </summary>
public sealed class LayoutDavFileOpener(NzbFileStreamFactory factory, DavLayoutCache layouts, FileHoles? holes = null, ILogger<LayoutDavFileOpener>? logger = null, SegmentPatchStore? patches = null) : IDavFileOpener
{
    /// <inheritdoc />
    public Task<Stream> OpenAsync(DavItem item, long readEnd, bool ranged, CancellationToken cancellationToken) =>
        OpenAsync(item, readEnd, ranged, null, cancellationToken);

    /// <inheritdoc />
    public Task<Stream> OpenAsync(DavItem item, long readEnd, bool ranged, TrafficAccount? account, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(item);
        cancellationToken.ThrowIfCancellationRequested();
        if (item.IsDirectory || item.Layout is null)
            throw new ArgumentException($"'{item.Path}' is not a library file.", nameof(item));
        if (!factory.HasProviders)
            throw new DavUnavailableException("No Usenet provider is configured (Usenet:Providers); library files cannot be streamed.");
        var layout = layouts.Get(item);
        if (layout.Length != item.Size)
            throw new LayoutFormatException($"'{item.Path}' is {item.Size} bytes but its layout describes {layout.Length}.");

        // CBC needs whole blocks: read ahead to the end of the block holding the last wanted byte.
        var end = Math.Clamp(readEnd, 0, item.Size);
        var fill = Holes(item);
        var storedEnd = layout.Encryption is { } aes ? Math.Min(layout.StoredLength, (aes.PlaintextOffset + end + 15) / 16 * 16) : end;
        if (layout is { Encryption: null, Parts: [var whole] } && whole.RangeOffset == 0 && whole.RangeLength == whole.FileSize)
        {
            // A plain file: the segment stream is the file; nothing to cut or join.
            return Task.FromResult<Stream>(OpenPart(whole, storedEnd, fill, ranged, account));
        }

        var parts = new List<CombinedStreamPart>(layout.Parts.Count);
        long partStart = 0;
        foreach (var part in layout.Parts)
        {
            var wanted = storedEnd - partStart;
            parts.Add(new CombinedStreamPart(_ => ValueTask.FromResult<Stream>(OpenPart(part, wanted, fill, ranged, account)), part.RangeOffset, part.RangeLength));
            partStart += part.RangeLength;
        }
        Stream stream = new CombinedStream(parts);
        if (layout.Encryption is { } encryption)
            stream = new AesCbcDecryptingStream(stream, encryption.Key, encryption.Iv, encryption.PlaintextOffset, encryption.PlaintextLength, leaveOpen: false);
        return Task.FromResult(stream);
    }

    // A part wholly inside the wanted range reads ahead freely; the part holding its end stops there.
    private BufferedSegmentStream OpenPart(LayoutPart part, long wanted, SegmentHoles? fill, bool ranged, TrafficAccount? account)
    {
        var stream = factory.Open(part.MessageIds, part.FileSize, part.PartSize, fill, ranged, account);
        if (wanted < part.RangeLength)
            stream.LimitReadAhead(part.RangeOffset + Math.Max(0, wanted));
        return stream;
    }

    // Confirmed holes read as zeros; those a PAR2 repair rebuilt (of any of the job's files: a
    // segment at a volume boundary belongs to two) read from their patch. Neither is fetched.
    private SegmentHoles? Holes(DavItem item)
    {
        var missing = holes?.For(item.Id);
        var patched = patches?.ForJob(item.JobId);
        if (patched is null)
            return missing is null ? null : new SegmentHoles(missing, id => FirstFill(item, id));
        var all = missing is null ? patched : new HashSet<string>(missing.Concat(patched), StringComparer.Ordinal);
        return new SegmentHoles(all, id => FirstFill(item, id), patches);
    }

    // Once per file per run: a Degraded file played is worth one line, not one per read.
    private void FirstFill(DavItem item, string messageId)
    {
        if (holes!.FirstFill(item.Id))
            logger?.LogWarning("Playing {Path} through its confirmed holes: <{MessageId}> (and any other hole) reads as zeros", item.Path, messageId);
    }
}

using System.IO.Hashing;
using Microsoft.Extensions.Caching.Memory;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;

namespace NzbDav.Server.WebDav;

/// <summary>
/// Decoded file layouts, so a player's many ranged GETs (and rclone's chunked reads) decode a file's
/// message-ids once rather than on every request. Keyed by the item and a hash of its stored blob,
/// so a re-ingested file never gets a stale layout. Bounded by message-ids held (each costs about
/// 50 bytes decoded) and expires entries unused for a while.
/// </summary>
public sealed class DavLayoutCache : IDisposable
{
    // About 50 MB of decoded message-ids: hundreds of files' worth, however large.
    private const long MaxMessageIds = 1_000_000;
    private static readonly TimeSpan Unused = TimeSpan.FromMinutes(10);

    private readonly MemoryCache _cache = new(new MemoryCacheOptions { SizeLimit = MaxMessageIds });

    /// <summary>The layout of <paramref name="item"/>, decoded now or earlier.</summary>
    /// <exception cref="LayoutFormatException">The stored layout is damaged.</exception>
    public DavFileLayout Get(DavItem item)
    {
        ArgumentNullException.ThrowIfNull(item);
        var blob = item.Layout ?? throw new ArgumentException($"'{item.Path}' has no layout.", nameof(item));
        var key = (item.Id, XxHash64.HashToUInt64(blob));
        if (_cache.TryGetValue(key, out DavFileLayout? cached) && cached is not null)
        {
            return cached;
        }

        var layout = DavFileLayoutCodec.Decode(blob);
        var ids = Math.Max(1, layout.Parts.Sum(p => (long)p.MessageIds.Count));
        _cache.Set(key, layout, new MemoryCacheEntryOptions { Size = ids, SlidingExpiration = Unused });
        return layout;
    }

    public void Dispose() => _cache.Dispose();
}

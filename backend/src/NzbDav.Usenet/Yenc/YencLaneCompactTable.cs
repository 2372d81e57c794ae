using System.Runtime.InteropServices;

namespace NzbDav.Usenet.Yenc;

/// <summary>
/// Byte-shuffle indices that pack a 16-byte lane's kept bytes to its front: entry m (16 bytes)
/// lists, in order, the positions of the set bits of the 16-bit keep-mask m. One entry per lane
/// lets the 256-bit kernel pack a block with two loads and two stores.
/// </summary>
/// <remarks>
/// The table is 1 MiB, but yEnc lines drop few bytes: nearly every lane keeps all 16 bytes or all
/// but one or two (an escape, a CR LF), so the entries in use are a few hundred and stay in cache.
/// </remarks>
internal static class YencLaneCompactTable
{
    public const int EntrySize = 16;

    private static readonly byte[] Indices = Build();

    /// <summary>The first entry; entry m starts at byte 16·m. Take the reference once, outside a loop.</summary>
    public static ref byte First => ref MemoryMarshal.GetArrayDataReference(Indices);

    private static byte[] Build()
    {
        var table = GC.AllocateUninitializedArray<byte>(65536 * EntrySize, pinned: true);
        for (var mask = 0; mask < 65536; mask++)
        {
            var entry = table.AsSpan(mask * EntrySize, EntrySize);
            var n = 0;
            for (var bit = 0; bit < 16; bit++)
            {
                if ((mask & (1 << bit)) != 0)
                {
                    entry[n++] = (byte)bit;
                }
            }
            // Past the kept bytes: whatever the next store overwrites; zeroing bytes (0x80) keeps it tidy.
            entry[n..].Fill(0x80);
        }
        return table;
    }
}

using System.Runtime.InteropServices;

namespace NzbDav.Usenet.Yenc;

/// <summary>
/// Byte-shuffle indices that pack the kept bytes of an 8-byte group to its front: entry m lists,
/// in order, the positions of the set bits of m (kept bytes), padded with 0. Used with PSHUFB by
/// the 128-bit kernel, whose CPUs have no byte-compress instruction; it stays 4 KiB where the
/// 256-bit kernel's one-entry-per-lane table is 1 MiB.
/// </summary>
internal static class YencCompactTable
{
    // Entries 0..255 pack into the lower 8-byte half of a 16-byte lane; entries 256..511 are the
    // same with every index moved up by 8, for the upper half.
    private static readonly ulong[] Indices = Build();

    /// <summary>
    /// The first entry; entry m (0..255) is the lower-half shuffle for keep-mask m and entry
    /// 256 + m the upper-half one. Take the reference once, outside a loop.
    /// </summary>
    public static ref ulong First => ref MemoryMarshal.GetArrayDataReference(Indices);

    private static ulong[] Build()
    {
        var table = new ulong[512];
        for (var mask = 0; mask < 256; mask++)
        {
            ulong entry = 0;
            var n = 0;
            for (var bit = 0; bit < 8; bit++)
            {
                if ((mask & (1 << bit)) != 0)
                {
                    entry |= (ulong)bit << (8 * n++);
                }
            }
            table[mask] = entry;
            table[256 + mask] = entry + 0x0808080808080808UL;
        }
        return table;
    }
}

using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NzbDav.Usenet.Yenc;

/// <summary>
/// Byte-shuffle indices that pack the kept bytes of an 8-byte group to its front: entry m lists,
/// in order, the positions of the set bits of m (kept bytes), padded with 0. Used with PSHUFB,
/// which the CPU lacks a compress instruction for (no AVX-512 VBMI2 assumed).
/// </summary>
internal static class YencCompactTable
{
    // Adding this moves every index of an entry into the upper 8-byte half of a 16-byte lane.
    public const ulong UpperHalf = 0x0808080808080808UL;

    private static readonly ulong[] Indices = Build();

    /// <summary>Shuffle indices for keep-mask <paramref name="mask"/> (0..255).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong For(uint mask)
        => Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(Indices), (nint)mask);

    private static ulong[] Build()
    {
        var table = new ulong[256];
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
        }
        return table;
    }
}

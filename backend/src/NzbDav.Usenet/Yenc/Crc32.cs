using System.Runtime.InteropServices;

namespace NzbDav.Usenet.Yenc;

/// <summary>
/// CRC-32 (IEEE 802.3, the checksum yEnc's <c>crc32</c>/<c>pcrc32</c> carry).
/// </summary>
/// <remarks>
/// System.IO.Hashing is not on the NuGet mirror (docs/dependencies.md). The .NET runtime ships
/// zlib-ng inside libSystem.IO.Compression.Native and exports its SIMD (PCLMULQDQ) crc32 as
/// <c>CompressionNative_Crc32</c>; we call that rather than write our own CRC.
/// </remarks>
public static unsafe partial class Crc32
{
    /// <summary>Continues <paramref name="crc"/> (0 to start) over <paramref name="data"/>.</summary>
    public static uint Append(uint crc, ReadOnlySpan<byte> data)
    {
        fixed (byte* p = data)
        {
            // The native entry takes an int length; slices of any span fit.
            return NativeCrc32(crc, p, data.Length);
        }
    }

    /// <summary>CRC-32 of <paramref name="data"/>.</summary>
    public static uint Compute(ReadOnlySpan<byte> data) => Append(0, data);

    [LibraryImport("libSystem.IO.Compression.Native", EntryPoint = "CompressionNative_Crc32")]
    private static partial uint NativeCrc32(uint crc, byte* buffer, int length);
}

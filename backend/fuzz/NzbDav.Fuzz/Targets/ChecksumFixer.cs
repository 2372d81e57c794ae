using System.Buffers.Binary;
using System.IO.Hashing;
using System.Security.Cryptography;

namespace NzbDav.Fuzz.Targets;

/// <summary>
/// Recomputes the checksums that guard archive headers, in place, walking the blocks the way the
/// formats lay them out, so a mutated length or flag is seen by the parser instead of failing the
/// CRC. Walking stops quietly wherever the structure no longer makes sense; the parser sees the rest.
/// </summary>
internal static class ChecksumFixer
{
    /// <summary>
    /// The PAR2 harnesses' input: one flag byte, then the PAR2 bytes; with flag bit 0 the packet
    /// MD5s are recomputed (<see cref="FixPar2"/>). Null for an empty input.
    /// </summary>
    public static byte[]? Par2Input(byte[] input)
    {
        if (input.Length == 0)
        {
            return null;
        }

        var data = input.AsSpan(1).ToArray();
        if ((input[0] & 1) != 0)
        {
            FixPar2(data);
        }

        return data;
    }

    public static void Fix(ArchiveTarget.Format format, byte[] volume)
    {
        switch (format)
        {
            case ArchiveTarget.Format.Rar4:
                FixRar4(volume);
                break;
            case ArchiveTarget.Format.Rar5:
                FixRar5(volume);
                break;
            default:
                FixSevenZip(volume);
                break;
        }
    }

    // RAR 2.9–4: 7-byte marker; blocks of CRC16(2) type(1) flags(2) size(2) [add_size(4) when flags & 0x8000];
    // the CRC is the low half of CRC-32 over the header from its type byte.
    private static void FixRar4(byte[] v)
    {
        var position = 7L;
        while (position + 7 <= v.Length)
        {
            var p = (int)position;
            var type = v[p + 2];
            var flags = BinaryPrimitives.ReadUInt16LittleEndian(v.AsSpan(p + 3));
            var size = BinaryPrimitives.ReadUInt16LittleEndian(v.AsSpan(p + 5));
            if (size < 7 || p + size > v.Length)
            {
                return;
            }
            var crc = (ushort)Crc32.HashToUInt32(v.AsSpan(p + 2, size - 2));
            BinaryPrimitives.WriteUInt16LittleEndian(v.AsSpan(p), crc);
            if (type == 0x73 && (flags & 0x0080) != 0)
            {
                return; // encrypted headers follow
            }
            long add = 0;
            if ((flags & 0x8000) != 0 && size >= 11)
            {
                add = BinaryPrimitives.ReadUInt32LittleEndian(v.AsSpan(p + 7));
            }
            position += size + add;
        }
    }

    // RAR5: 8-byte signature; blocks of CRC32(4) size(vint) then the header, whose type, flags,
    // [extra size] and [data size] vints say where the next block starts.
    private static void FixRar5(byte[] v)
    {
        var position = 8L;
        while (position + 5 <= v.Length)
        {
            var p = (int)position;
            if (!TryVint(v, p + 4, out var size, out var sizeLength) || size == 0 || size > (ulong)(v.Length - p - 4 - sizeLength))
            {
                return;
            }
            var header = p + 4 + sizeLength;
            var end = header + (int)size;
            BinaryPrimitives.WriteUInt32LittleEndian(v.AsSpan(p), Crc32.HashToUInt32(v.AsSpan(p + 4, sizeLength + (int)size)));
            var at = header;
            if (!TryVint(v, at, out var type, out var n))
            {
                return;
            }
            at += n;
            if (type == 4 || !TryVint(v, at, out var flags, out n))
            {
                return; // encrypted headers follow, or the header is too short to walk on
            }
            at += n;
            ulong data = 0;
            if ((flags & 1) != 0)
            {
                if (!TryVint(v, at, out _, out n))
                {
                    return;
                }
                at += n;
            }
            if ((flags & 2) != 0 && !TryVint(v, at, out data, out _))
            {
                return;
            }
            if (at > end || data > (ulong)v.Length)
            {
                return;
            }
            position = end + (long)data;
        }
    }

    private static bool TryVint(byte[] v, int at, out ulong value, out int length)
    {
        value = 0;
        length = 0;
        for (var shift = 0; shift < 64 && at + length < v.Length; shift += 7)
        {
            var b = v[at + length++];
            value |= (ulong)(b & 0x7F) << shift;
            if ((b & 0x80) == 0)
            {
                return true;
            }
        }
        return false;
    }

    // 7z: signature(6) version(2) StartHeaderCRC(4) NextHeaderOffset(8) NextHeaderSize(8) NextHeaderCRC(4).
    private static void FixSevenZip(byte[] v)
    {
        if (v.Length < 32)
        {
            return;
        }
        var offset = BinaryPrimitives.ReadUInt64LittleEndian(v.AsSpan(12));
        var size = BinaryPrimitives.ReadUInt64LittleEndian(v.AsSpan(20));
        if (offset <= (ulong)v.Length && size <= (ulong)v.Length && 32 + offset + size <= (ulong)v.Length)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(v.AsSpan(28), Crc32.HashToUInt32(v.AsSpan(32 + (int)offset, (int)size)));
        }
        BinaryPrimitives.WriteUInt32LittleEndian(v.AsSpan(8), Crc32.HashToUInt32(v.AsSpan(12, 20)));
    }

    /// <summary>
    /// PAR2: every packet is magic(8) length(8) MD5(16) then the set id, type and body the MD5 covers;
    /// a packet whose length fits gets its MD5 recomputed.
    /// </summary>
    public static void FixPar2(byte[] v)
    {
        var magic = "PAR2\0PKT"u8;
        var position = 0;
        while (true)
        {
            var found = v.AsSpan(position).IndexOf(magic);
            if (found < 0)
            {
                return;
            }
            var p = position + found;
            if (p + 64 > v.Length)
            {
                return;
            }
            var length = BinaryPrimitives.ReadUInt64LittleEndian(v.AsSpan(p + 8));
            if (length >= 64 && length <= (ulong)(v.Length - p))
            {
#pragma warning disable CA5351 // PAR2 packets are checked with MD5; the harness has to write what the format reads.
                MD5.HashData(v.AsSpan(p + 32, (int)length - 32), v.AsSpan(p + 16, 16));
#pragma warning restore CA5351
                position = p + (int)length;
            }
            else
            {
                position = p + 8;
            }
        }
    }
}

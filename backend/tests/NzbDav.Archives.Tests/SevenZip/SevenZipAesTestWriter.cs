using System.Buffers.Binary;
using System.IO.Hashing;
using System.Security.Cryptography;
using System.Text;
using NzbDav.Archives.Crypto;

namespace NzbDav.Archives.Tests.SevenZip;

/// <summary>
/// Writes a 7z archive whose files all sit in ONE Copy + AES-256 folder, each file a sub-stream at
/// an arbitrary (not block-aligned) offset of one CBC stream. 7-Zip gives every stored file its own
/// folder, but the format allows this and other writers do it; SharpCompress reading the result
/// with the password is what shows the writer follows the format.
/// </summary>
internal static class SevenZipAesTestWriter
{
    private const int CyclesPower = 10;

    public static byte[] Write(IReadOnlyList<(string Name, byte[] Data)> files, string password, bool withCrcs = true, int seed = 1)
    {
        var random = new Random(seed);
        var salt = new byte[8];
        var iv = new byte[16];
        random.NextBytes(salt);
        random.NextBytes(iv);

        var plain = files.SelectMany(f => f.Data).ToArray();
        var padded = new byte[(plain.Length + 15) / 16 * 16];
        plain.CopyTo(padded, 0);
        using var aes = Aes.Create();
        aes.Key = SevenZipKeyDerivation.Derive(password, salt, CyclesPower);
        var packed = aes.EncryptCbc(padded, iv, PaddingMode.None);

        // Salt and IV present (bits 7 and 6); the second byte adds size - 1 to each.
        byte[] properties = [0xC0 | CyclesPower, (byte)(((salt.Length - 1) << 4) | (iv.Length - 1)), .. salt, .. iv];
        var header = new List<byte> { 0x01, 0x04 };
        header.AddRange([0x06, 0x00, 0x01, 0x09]);
        Number(header, (ulong)packed.Length);
        header.AddRange([0x00, 0x07, 0x0B, 0x01, 0x00, 0x02, 0x24, 0x06, 0xF1, 0x07, 0x01]);
        Number(header, (ulong)properties.Length);
        header.AddRange(properties);
        header.AddRange([0x01, 0x00, 0x01, 0x00, 0x0C]);
        Number(header, (ulong)plain.Length);
        Number(header, (ulong)plain.Length);
        header.AddRange([0x00, 0x08, 0x0D]);
        Number(header, (ulong)files.Count);
        header.Add(0x09);
        foreach (var file in files.Take(files.Count - 1))
        {
            Number(header, (ulong)file.Data.Length);
        }

        if (withCrcs)
        {
            header.AddRange([0x0A, 0x01]);
            foreach (var file in files)
            {
                header.AddRange(BitConverter.GetBytes(Crc32.HashToUInt32(file.Data)));
            }
        }

        header.AddRange([0x00, 0x00, 0x05]);
        Number(header, (ulong)files.Count);
        var names = new List<byte> { 0x00 };
        foreach (var file in files)
        {
            names.AddRange(Encoding.Unicode.GetBytes(file.Name + "\0"));
        }

        header.Add(0x11);
        Number(header, (ulong)names.Count);
        header.AddRange(names);
        header.AddRange([0x00, 0x00]);

        var archive = new byte[32 + packed.Length + header.Count];
        byte[] signature = [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0x00, 0x04];
        signature.CopyTo(archive, 0);
        BinaryPrimitives.WriteInt64LittleEndian(archive.AsSpan(12), packed.Length);
        BinaryPrimitives.WriteInt64LittleEndian(archive.AsSpan(20), header.Count);
        BinaryPrimitives.WriteUInt32LittleEndian(archive.AsSpan(28), Crc32.HashToUInt32([.. header]));
        BinaryPrimitives.WriteUInt32LittleEndian(archive.AsSpan(8), Crc32.HashToUInt32(archive.AsSpan(12, 20)));
        packed.CopyTo(archive, 32);
        header.CopyTo(archive, 32 + packed.Length);
        return archive;
    }

    /// <summary>7z NUMBER: as many leading one bits in the first byte as little-endian bytes follow.</summary>
    private static void Number(List<byte> output, ulong value)
    {
        for (var extra = 0; extra < 8; extra++)
        {
            if (value < 1UL << (7 * (extra + 1)))
            {
                output.Add((byte)(((0xFF00 >> extra) & 0xFF) | (int)(value >> (8 * extra))));
                for (var i = 0; i < extra; i++)
                {
                    output.Add((byte)(value >> (8 * i)));
                }

                return;
            }
        }

        output.Add(0xFF);
        output.AddRange(BitConverter.GetBytes(value));
    }
}

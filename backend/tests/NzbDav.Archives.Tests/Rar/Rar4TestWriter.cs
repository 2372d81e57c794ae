using System.Buffers.Binary;
using System.IO.Hashing;
using System.Text;

namespace NzbDav.Archives.Tests.Rar;

/// <summary>
/// Test-only RAR 2.9–4.x writer built from the format description: stored files split across
/// <c>.partNN.rar</c>-style volumes, with a choice of end-block fields.
/// </summary>
internal sealed class Rar4TestWriter
{
    private const ushort LongBlock = 0x8000;

    public int DataBytesPerVolume { get; init; } = int.MaxValue;

    /// <summary>Extra end-block flags: 0x0002 data CRC (+4 bytes), 0x0004 reserved space (+7), 0x0008 volume number (+2).</summary>
    public ushort EndFlags { get; init; }

    public byte[][] Write(params TestFile[] files)
    {
        var volumes = new List<MemoryStream> { Start(0) };
        var budget = DataBytesPerVolume;
        foreach (var file in files)
        {
            var offset = 0;
            do
            {
                if (budget == 0)
                {
                    End(volumes[^1], more: true, volumes.Count - 1);
                    volumes.Add(Start(volumes.Count));
                    budget = DataBytesPerVolume;
                }

                var take = Math.Min(budget, file.Data.Length - offset);
                var flags = (ushort)(LongBlock | (offset > 0 ? 0x01 : 0) | (offset + take < file.Data.Length ? 0x02 : 0) | (file.IsDirectory ? 0xE0 : 0));
                WriteFileHeader(volumes[^1], file, flags, take);
                volumes[^1].Write(file.Data, offset, take);
                offset += take;
                budget -= take;
            }
            while (offset < file.Data.Length);
        }

        End(volumes[^1], more: false, volumes.Count - 1);
        return [.. volumes.Select(v => v.ToArray())];
    }

    /// <summary>
    /// A single-volume archive holding one AES-encrypted stored entry whose salt, CRC and cipher text
    /// come from a real archive (the writer cannot encrypt: it only frames what it is given).
    /// </summary>
    public static byte[] WriteEncryptedStored(string name, byte[] salt, uint crc, int size, byte[] cipherText)
    {
        var output = Start(0);
        var nameBytes = Encoding.ASCII.GetBytes(name);
        var fields = new byte[25 + nameBytes.Length + salt.Length];
        BinaryPrimitives.WriteUInt32LittleEndian(fields, (uint)cipherText.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(fields.AsSpan(4), (uint)size);
        fields[8] = 2; // Windows
        BinaryPrimitives.WriteUInt32LittleEndian(fields.AsSpan(9), crc);
        BinaryPrimitives.WriteUInt32LittleEndian(fields.AsSpan(13), 0x5A21_6000);
        fields[17] = 29; // RAR 2.9: AES-128
        fields[18] = 0x30; // stored
        BinaryPrimitives.WriteUInt16LittleEndian(fields.AsSpan(19), (ushort)nameBytes.Length);
        nameBytes.CopyTo(fields, 25);
        salt.CopyTo(fields, 25 + nameBytes.Length);
        // Long block, encrypted, salt present.
        WriteBlock(output, 0x74, LongBlock | 0x0004 | 0x0400, fields);
        output.Write(cipherText);
        WriteBlock(output, 0x7B, 0x4000, []);
        return output.ToArray();
    }

    private static MemoryStream Start(int index)
    {
        var output = new MemoryStream();
        output.Write([0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x00]);
        // Volume, new numbering, first volume (only on the first).
        WriteBlock(output, 0x73, (ushort)(0x0001 | 0x0010 | (index == 0 ? 0x0100 : 0)), new byte[6]);
        return output;
    }

    private void End(MemoryStream output, bool more, int index)
    {
        var fields = new List<byte>();
        if ((EndFlags & 0x0002) != 0)
            fields.AddRange(new byte[4]);
        if ((EndFlags & 0x0008) != 0)
            fields.AddRange(BitConverter.GetBytes((ushort)index));
        if ((EndFlags & 0x0004) != 0)
            fields.AddRange(new byte[7]);
        WriteBlock(output, 0x7B, (ushort)(0x4000 | EndFlags | (more ? 0x0001 : 0)), [.. fields]);
    }

    private static void WriteFileHeader(MemoryStream output, TestFile file, ushort flags, int packSize)
    {
        var name = Encoding.ASCII.GetBytes(file.Name.Replace('/', '\\'));
        var fields = new byte[25 + name.Length];
        BinaryPrimitives.WriteUInt32LittleEndian(fields, (uint)packSize);
        BinaryPrimitives.WriteUInt32LittleEndian(fields.AsSpan(4), (uint)file.Data.Length);
        fields[8] = 3; // Unix
        BinaryPrimitives.WriteUInt32LittleEndian(fields.AsSpan(13), 0x5A21_6000); // a valid DOS date and time
        fields[17] = 20;
        fields[18] = 0x30; // stored
        BinaryPrimitives.WriteUInt16LittleEndian(fields.AsSpan(19), (ushort)name.Length);
        name.CopyTo(fields, 25);
        WriteBlock(output, 0x74, flags, fields);
    }

    private static void WriteBlock(MemoryStream output, byte type, ushort flags, byte[] fields)
    {
        var header = new byte[7 + fields.Length];
        header[2] = type;
        BinaryPrimitives.WriteUInt16LittleEndian(header.AsSpan(3), flags);
        BinaryPrimitives.WriteUInt16LittleEndian(header.AsSpan(5), (ushort)header.Length);
        fields.CopyTo(header, 7);
        BinaryPrimitives.WriteUInt16LittleEndian(header, (ushort)Crc32.HashToUInt32(header.AsSpan(2)));
        output.Write(header);
    }
}

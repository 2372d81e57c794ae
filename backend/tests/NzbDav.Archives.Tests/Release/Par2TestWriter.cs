using System.Buffers.Binary;
using System.Text;
using NzbDav.Archives.Release;

namespace NzbDav.Archives.Tests.Release;

/// <summary>Builds PAR 2.0 packets byte by byte so most tests need no external tool.</summary>
internal static class Par2TestWriter
{
    public static byte[] Packet(string type, Hash16 setId, ReadOnlySpan<byte> body)
    {
        var padded = (body.Length + 3) & ~3;
        var packet = new byte[64 + padded];
        "PAR2\0PKT"u8.CopyTo(packet);
        BinaryPrimitives.WriteUInt64LittleEndian(packet.AsSpan(8), (ulong)packet.Length);
        setId.WriteTo(packet.AsSpan(32));
        Encoding.ASCII.GetBytes(type.PadRight(16, '\0')).CopyTo(packet.AsSpan(48));
        body.CopyTo(packet.AsSpan(64));
        Hash16.Md5Of(packet.AsSpan(32)).WriteTo(packet.AsSpan(16));
        return packet;
    }

    public static byte[] FileDescription(Hash16 setId, Hash16 fileId, byte[] content, string name) =>
        FileDescription(setId, fileId, Hash16.Md5Of(content), Par2Hashes.First16KMd5(content, content.Length),
            content.Length, Encoding.UTF8.GetBytes(name));

    public static byte[] FileDescription(Hash16 setId, Hash16 fileId, Hash16 md5, Hash16 md5K, long length, byte[] name)
    {
        var body = new byte[56 + name.Length];
        fileId.WriteTo(body);
        md5.WriteTo(body.AsSpan(16));
        md5K.WriteTo(body.AsSpan(32));
        BinaryPrimitives.WriteUInt64LittleEndian(body.AsSpan(48), (ulong)length);
        name.CopyTo(body.AsSpan(56));
        return Packet("PAR 2.0\0FileDesc", setId, body);
    }

    public static byte[] MainPacket(Hash16 setId, long sliceSize, params Hash16[] fileIds)
    {
        var body = new byte[12 + 16 * fileIds.Length];
        BinaryPrimitives.WriteUInt64LittleEndian(body, (ulong)sliceSize);
        BinaryPrimitives.WriteUInt32LittleEndian(body.AsSpan(8), (uint)fileIds.Length);
        for (var i = 0; i < fileIds.Length; i++)
        {
            fileIds[i].WriteTo(body.AsSpan(12 + 16 * i));
        }

        return Packet("PAR 2.0\0Main", setId, body);
    }

    public static byte[] UnicodeName(Hash16 setId, Hash16 fileId, string name)
    {
        var text = Encoding.Unicode.GetBytes(name);
        var body = new byte[16 + text.Length];
        fileId.WriteTo(body);
        text.CopyTo(body.AsSpan(16));
        return Packet("PAR 2.0\0UniFileN", setId, body);
    }

    public static byte[] RecoverySlice(Hash16 setId, int dataLength)
    {
        var body = new byte[4 + dataLength];
        Random.Shared.NextBytes(body);
        return Packet("PAR 2.0\0RecvSlic", setId, body);
    }

    public static byte[] Concat(params byte[][] parts) => parts.SelectMany(p => p).ToArray();

    public static Hash16 Id(int n) => Hash16.Md5Of(BitConverter.GetBytes(n));
}

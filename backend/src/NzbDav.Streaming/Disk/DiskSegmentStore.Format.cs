using System.Buffers;
using System.Buffers.Binary;
using System.Security.Cryptography;
using System.Text;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming.Disk;

// The file format: names from message-ids, the 16-byte header, the part header's fields.
public sealed partial class DiskSegmentStore
{
    /// <summary>The file name of a message-id: hex SHA-256, so any id (slashes, dots, length) makes a safe, fixed-length name.</summary>
    internal static string NameOf(string messageId)
    {
        Span<byte> hash = stackalloc byte[32];
        var id = messageId.AsSpan().Trim().Trim('<').Trim('>');
        var length = Encoding.UTF8.GetByteCount(id);
        var rented = length <= 512 ? null : ArrayPool<byte>.Shared.Rent(length);
        Span<byte> bytes = rented ?? stackalloc byte[512];
        var written = Encoding.UTF8.GetBytes(id, bytes);
        SHA256.HashData(bytes[..written], hash);
        if (rented is not null)
            ArrayPool<byte>.Shared.Return(rented);
        return Convert.ToHexStringLower(hash);
    }

    private static bool IsName(string name) => name.Length == 64 && name.All(char.IsAsciiHexDigitLower);

    private static void WriteHeader(Span<byte> header, int metaLength, int length, uint crc, DiskSegmentKind kind)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(header, Magic);
        header[4] = Version;
        header[5] = (byte)kind;
        BinaryPrimitives.WriteUInt16LittleEndian(header[6..], (ushort)metaLength);
        BinaryPrimitives.WriteInt32LittleEndian(header[8..], length);
        BinaryPrimitives.WriteUInt32LittleEndian(header[12..], crc);
    }

    private static bool TryParseHeader(ReadOnlySpan<byte> header, out int metaLength, out int length, out uint crc, out DiskSegmentKind kind)
    {
        metaLength = BinaryPrimitives.ReadUInt16LittleEndian(header[6..]);
        length = BinaryPrimitives.ReadInt32LittleEndian(header[8..]);
        crc = BinaryPrimitives.ReadUInt32LittleEndian(header[12..]);
        kind = (DiskSegmentKind)header[5];
        return BinaryPrimitives.ReadUInt32LittleEndian(header) == Magic && header[4] == Version
            && kind is DiskSegmentKind.Playback or DiskSegmentKind.Probe && length > 0
            && metaLength is >= FixedMetaSize and <= FixedMetaSize + MaxNameBytes;
    }

    // The part header: file size, part begin (8 bytes each), line length, part, total parts (4 each, 0 for none), the name's UTF-8.
    private static void WriteMeta(Span<byte> meta, YencHeader part, ReadOnlySpan<byte> name)
    {
        BinaryPrimitives.WriteInt64LittleEndian(meta, part.FileSize);
        BinaryPrimitives.WriteInt64LittleEndian(meta[8..], part.PartBegin);
        BinaryPrimitives.WriteInt32LittleEndian(meta[16..], part.LineLength);
        BinaryPrimitives.WriteInt32LittleEndian(meta[20..], part.Part ?? 0);
        BinaryPrimitives.WriteInt32LittleEndian(meta[24..], part.TotalParts ?? 0);
        name.CopyTo(meta[FixedMetaSize..]);
    }

    private static YencHeader? ParseMeta(ReadOnlySpan<byte> meta, int length)
    {
        var fileSize = BinaryPrimitives.ReadInt64LittleEndian(meta);
        var begin = BinaryPrimitives.ReadInt64LittleEndian(meta[8..]);
        var line = BinaryPrimitives.ReadInt32LittleEndian(meta[16..]);
        var number = BinaryPrimitives.ReadInt32LittleEndian(meta[20..]);
        var total = BinaryPrimitives.ReadInt32LittleEndian(meta[24..]);
        if (fileSize <= 0 || begin < 0 || begin + length > fileSize || number < 0 || total < 0)
            return null;
        string name;
        try
        {
            name = StrictUtf8.GetString(meta[FixedMetaSize..]);
        }
        catch (DecoderFallbackException)
        {
            return null;
        }

        return new YencHeader(name, fileSize, line, number == 0 ? null : number, total == 0 ? null : total, begin, length);
    }
}

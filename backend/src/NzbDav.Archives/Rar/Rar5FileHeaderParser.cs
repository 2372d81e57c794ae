using System.Text;
using NzbDav.Archives.Crypto;
using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Rar;

/// <summary>Turns a RAR5 file header into one stored piece, refusing what cannot be streamed.</summary>
internal static class Rar5FileHeaderParser
{
    private const ulong DirectoryFlag = 0x0001;
    private const ulong UnixTimeFlag = 0x0002;
    private const ulong CrcFlag = 0x0004;
    private const ulong UnknownSizeFlag = 0x0008;
    private const ulong SolidFlag = 0x0040;
    private const ulong ExtraEncryption = 0x01;
    private const ulong ExtraTime = 0x03;

    public static StoredPiece Parse(ReadOnlySpan<byte> body, Rar5BlockHeader block, string what, ArchiveByteRange data, Rar5KeyCache keys)
    {
        var reader = new HeaderSpanReader(body[..^block.ExtraSize], what);
        reader.Skip(block.FieldsStart);
        var fileFlags = reader.ReadVInt();
        var size = reader.ReadVIntAsInt64("unpacked size");
        reader.ReadVInt();
        DateTimeOffset? modified = (fileFlags & UnixTimeFlag) != 0 ? DateTimeOffset.FromUnixTimeSeconds(reader.ReadUInt32()) : null;
        if ((fileFlags & CrcFlag) != 0)
        {
            reader.ReadUInt32();
        }

        var compression = reader.ReadVInt();
        reader.ReadVInt();
        var nameLength = reader.ReadVIntAsInt32("name length");
        var rawName = Encoding.UTF8.GetString(reader.ReadBytes(nameLength));
        var path = ArchivePath.Normalize(rawName, "RAR5");
        var isDirectory = (fileFlags & DirectoryFlag) != 0;

        var method = (compression >> 7) & 0x7;
        if (!isDirectory && method != 0)
        {
            var solid = (compression & SolidFlag) != 0 ? ", solid" : string.Empty;
            throw new UnsupportedArchiveException($"RAR5 entry '{path}' is compressed (RAR method {method}{solid}); compressed archives cannot be streamed");
        }

        if (!isDirectory && (fileFlags & UnknownSizeFlag) != 0)
        {
            throw new UnsupportedArchiveException($"RAR5 entry '{path}' has an unknown unpacked size; it cannot be mapped to a fixed byte range");
        }

        ArchiveEncryption? encryption = null;
        var extra = new HeaderSpanReader(body[^block.ExtraSize..], what + " extra area");
        while (extra.Remaining > 0)
        {
            var recordSize = extra.ReadVIntAsInt32("extra record size");
            var record = new HeaderSpanReader(extra.ReadBytes(recordSize), what + " extra record");
            var type = record.ReadVInt();
            if (type == ExtraEncryption && !isDirectory)
            {
                var parsed = Rar5EncryptionRecord.Parse(ref record, hasIv: true);
                encryption = keys.Resolve(parsed, path);
            }
            else if (type == ExtraTime)
            {
                modified = ReadModified(ref record) ?? modified;
            }
        }

        return new StoredPiece(path, size, isDirectory, modified, encryption, block.SplitBefore, block.SplitAfter, data);
    }

    private static DateTimeOffset? ReadModified(ref HeaderSpanReader record)
    {
        const ulong unixFormat = 0x0001;
        const ulong hasModified = 0x0002;
        var flags = record.ReadVInt();
        if ((flags & hasModified) == 0)
        {
            return null;
        }

        if ((flags & unixFormat) != 0)
        {
            return DateTimeOffset.FromUnixTimeSeconds(record.ReadUInt32());
        }

        var fileTime = record.ReadUInt64();
        return fileTime <= (ulong)DateTime.MaxValue.ToFileTimeUtc() ? new DateTimeOffset(DateTime.FromFileTimeUtc((long)fileTime)) : null;
    }
}

using NzbDav.Archives.Crypto;
using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Rar;

/// <summary>Turns a RAR 2.9–4.x FILE_HEAD (0x74) block into a stored piece, refusing what cannot be streamed.</summary>
internal static class Rar4FileHeaderParser
{
    private const ushort SplitBefore = 0x0001;
    private const ushort SplitAfter = 0x0002;
    private const ushort Encrypted = 0x0004;
    private const ushort Solid = 0x0010;
    private const ushort DirectoryMask = 0x00E0;
    private const ushort LargeSizes = 0x0100;
    private const ushort UnicodeName = 0x0200;
    private const ushort HasSalt = 0x0400;
    private const byte StoredMethod = 0x30;
    private const byte FirstAesVersion = 29;

    /// <summary>Parses the block (from its CRC field) and returns the piece; its range covers the packed data after the header.</summary>
    public static StoredPiece Parse(ReadOnlySpan<byte> header, string what, int volumeIndex, long dataStart, Rar3KeyCache keys)
    {
        var reader = new HeaderSpanReader(header, what);
        reader.Skip(3);
        var flags = reader.ReadUInt16();
        reader.ReadUInt16();
        long packSize = reader.ReadUInt32();
        long size = reader.ReadUInt32();
        reader.ReadByte();
        reader.ReadUInt32();
        var dosTime = reader.ReadUInt32();
        var version = reader.ReadByte();
        var method = reader.ReadByte();
        var nameSize = reader.ReadUInt16();
        reader.ReadUInt32();
        if ((flags & LargeSizes) != 0)
        {
            packSize |= (long)reader.ReadUInt32() << 32;
            size |= (long)reader.ReadUInt32() << 32;
            if (packSize < 0 || size < 0)
            {
                throw reader.Error("64-bit size is out of range");
            }
        }

        var nameField = reader.ReadBytes(nameSize);
        var rawName = (flags & UnicodeName) != 0 ? Rar4UnicodeName.Decode(nameField) : Rar4UnicodeName.DecodeLegacy(nameField);
        var path = ArchivePath.Normalize(rawName, "RAR4");
        var isDirectory = (flags & DirectoryMask) == DirectoryMask;
        if (!isDirectory && method != StoredMethod)
        {
            var solid = (flags & Solid) != 0 ? ", solid" : string.Empty;
            throw new UnsupportedArchiveException($"RAR4 entry '{path}' is compressed (RAR method {method - StoredMethod}{solid}); compressed archives cannot be streamed");
        }

        ArchiveEncryption? encryption = null;
        if (!isDirectory && (flags & Encrypted) != 0)
        {
            if (version < FirstAesVersion)
            {
                throw new UnsupportedArchiveException($"RAR4 entry '{path}' uses the pre-2.9 RAR cipher, which is not supported (only AES)");
            }

            var salt = (flags & HasSalt) != 0 ? reader.ReadBytes(8) : [];
            encryption = keys.Resolve(salt, path);
        }

        var range = new ArchiveByteRange(volumeIndex, dataStart, packSize);
        return new StoredPiece(path, size, isDirectory, DosTime(dosTime), encryption, (flags & SplitBefore) != 0, (flags & SplitAfter) != 0, range);
    }

    /// <summary>MS-DOS date and time (local time of the archiver, kept as-is with a zero offset).</summary>
    private static DateTimeOffset? DosTime(uint value)
    {
        var date = (int)(value >> 16);
        var time = (int)(value & 0xFFFF);
        var year = ((date >> 9) & 0x7F) + 1980;
        var month = (date >> 5) & 0x0F;
        var day = date & 0x1F;
        var hour = time >> 11;
        var minute = (time >> 5) & 0x3F;
        var second = (time & 0x1F) * 2;
        if (month is < 1 or > 12 || day < 1 || day > DateTime.DaysInMonth(year, month) || hour > 23 || minute > 59 || second > 59)
        {
            return null;
        }

        return new DateTimeOffset(year, month, day, hour, minute, second, TimeSpan.Zero);
    }
}

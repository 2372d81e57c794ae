using System.Text;
using NzbDav.Archives.Entries;
using static NzbDav.Archives.SevenZip.SevenZipPropertyId;

namespace NzbDav.Archives.SevenZip;

/// <summary>Parses 7z FilesInfo: names, empty-stream/empty-file/anti flags, modification times, attributes.</summary>
internal static class SevenZipFilesParser
{
    private const uint DirectoryAttribute = 0x10;

    public static SevenZipFile[] Read(ref HeaderSpanReader reader)
    {
        var count = reader.ReadCount("file count", SevenZipStreamsParser.MaxItems);
        var emptyStream = new bool[count];
        bool[]? emptyFile = null;
        bool[]? anti = null;
        var names = new string?[count];
        var modified = new DateTimeOffset?[count];
        var attributes = new uint?[count];
        for (var id = reader.ReadNumber(); id != End; id = reader.ReadNumber())
        {
            var size = reader.ReadCount("file property size", int.MaxValue);
            var property = new HeaderSpanReader(reader.ReadBytes(size), "7z file property " + id);
            var emptyCount = emptyStream.Count(e => e);
            switch (id)
            {
                case EmptyStream:
                    emptyStream = SevenZipStreamsParser.ReadBits(ref property, count);
                    break;
                case EmptyFile:
                    emptyFile = SevenZipStreamsParser.ReadBits(ref property, emptyCount);
                    break;
                case Anti:
                    anti = SevenZipStreamsParser.ReadBits(ref property, emptyCount);
                    break;
                case Name:
                    ReadNames(ref property, names);
                    break;
                case ModifiedTime:
                    ReadTimes(ref property, modified);
                    break;
                case WinAttributes:
                    ReadAttributes(ref property, attributes);
                    break;
            }
        }

        var files = new SevenZipFile[count];
        var emptyIndex = 0;
        for (var i = 0; i < count; i++)
        {
            var name = names[i] ?? throw reader.Error($"file {i} has no name");
            var hasStream = !emptyStream[i];
            bool isDirectory, isAnti = false;
            if (hasStream)
            {
                isDirectory = false;
            }
            else
            {
                isDirectory = emptyFile is null || !emptyFile[emptyIndex];
                isAnti = anti is not null && anti[emptyIndex];
                emptyIndex++;
            }

            isDirectory |= !hasStream && attributes[i] is { } attr && (attr & DirectoryAttribute) != 0;
            files[i] = new SevenZipFile(name, hasStream, isDirectory, isAnti, modified[i]);
        }

        return files;
    }

    private static void ReadNames(ref HeaderSpanReader property, string?[] names)
    {
        if (property.ReadByte() != 0)
        {
            throw new UnsupportedArchiveException("7z file names stored in an external stream are not supported");
        }

        var name = new StringBuilder();
        for (var i = 0; i < names.Length; i++)
        {
            name.Clear();
            for (var unit = property.ReadUInt16(); unit != 0; unit = property.ReadUInt16())
            {
                name.Append((char)unit);
            }

            names[i] = name.ToString();
        }
    }

    private static void ReadTimes(ref HeaderSpanReader property, DateTimeOffset?[] times)
    {
        var defined = SevenZipStreamsParser.ReadDefined(ref property, times.Length);
        if (property.ReadByte() != 0)
        {
            throw new UnsupportedArchiveException("7z file times stored in an external stream are not supported");
        }

        for (var i = 0; i < times.Length; i++)
        {
            if (defined[i])
            {
                var fileTime = property.ReadUInt64();
                times[i] = fileTime <= (ulong)DateTime.MaxValue.ToFileTimeUtc() ? new DateTimeOffset(DateTime.FromFileTimeUtc((long)fileTime)) : null;
            }
        }
    }

    private static void ReadAttributes(ref HeaderSpanReader property, uint?[] attributes)
    {
        var defined = SevenZipStreamsParser.ReadDefined(ref property, attributes.Length);
        if (property.ReadByte() != 0)
        {
            throw new UnsupportedArchiveException("7z file attributes stored in an external stream are not supported");
        }

        for (var i = 0; i < attributes.Length; i++)
        {
            attributes[i] = defined[i] ? property.ReadUInt32() : null;
        }
    }
}

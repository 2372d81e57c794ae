using NzbDav.Archives.Entries;
using static NzbDav.Archives.SevenZip.SevenZipPropertyId;

namespace NzbDav.Archives.SevenZip;

/// <summary>Parses 7z StreamsInfo: PackInfo, UnpackInfo (folders, coders) and SubStreamsInfo.</summary>
internal static class SevenZipStreamsParser
{
    public const int MaxItems = 1 << 20;
    private const int MaxCoders = 64;

    public static SevenZipStreamsInfo Read(ref HeaderSpanReader reader)
    {
        var info = new SevenZipStreamsInfo();
        var id = reader.ReadNumber();
        if (id == PackInfo)
        {
            ReadPackInfo(ref reader, info);
            id = reader.ReadNumber();
        }

        if (id == UnpackInfo)
        {
            ReadUnpackInfo(ref reader, info);
            id = reader.ReadNumber();
        }

        info.SubStreamCounts = [.. Enumerable.Repeat(1, info.Folders.Length)];
        info.SubStreamSizes = [.. info.Folders.Select(f => f.UnpackSize)];
        info.SubStreamCrcs = [.. info.Folders.Select(f => f.Crc)];
        if (id == SubStreamsInfo)
        {
            ReadSubStreams(ref reader, info);
            id = reader.ReadNumber();
        }

        return id == End ? info : throw reader.Error($"unexpected property {id} in StreamsInfo");
    }

    /// <summary>Bit vector, most significant bit first.</summary>
    public static bool[] ReadBits(ref HeaderSpanReader reader, int count)
    {
        var bits = new bool[count];
        var current = 0;
        for (var i = 0; i < count; i++)
        {
            if (i % 8 == 0)
            {
                current = reader.ReadByte();
            }

            bits[i] = (current & (0x80 >> (i % 8))) != 0;
        }

        return bits;
    }

    /// <summary>An "all defined" byte, then a bit vector when it is zero.</summary>
    public static bool[] ReadDefined(ref HeaderSpanReader reader, int count) =>
        reader.ReadByte() != 0 ? [.. Enumerable.Repeat(true, count)] : ReadBits(ref reader, count);

    private static uint?[] ReadDigests(ref HeaderSpanReader reader, int count)
    {
        var defined = ReadDefined(ref reader, count);
        var digests = new uint?[count];
        for (var i = 0; i < count; i++)
        {
            digests[i] = defined[i] ? reader.ReadUInt32() : null;
        }

        return digests;
    }

    private static void ReadPackInfo(ref HeaderSpanReader reader, SevenZipStreamsInfo info)
    {
        info.PackPosition = reader.ReadNumberAsInt64("pack position");
        var count = reader.ReadCount("pack stream count", MaxItems);
        info.PackSizes = new long[count];
        for (var id = reader.ReadNumber(); id != End; id = reader.ReadNumber())
        {
            if (id == Size)
            {
                for (var i = 0; i < count; i++)
                {
                    info.PackSizes[i] = reader.ReadNumberAsInt64("pack size");
                }
            }
            else if (id == Crc)
            {
                ReadDigests(ref reader, count);
            }
            else
            {
                throw reader.Error($"unexpected property {id} in PackInfo");
            }
        }
    }

    private static void ReadUnpackInfo(ref HeaderSpanReader reader, SevenZipStreamsInfo info)
    {
        if (reader.ReadNumber() != Folder)
        {
            throw reader.Error("UnpackInfo does not start with kFolder");
        }

        var count = reader.ReadCount("folder count", MaxItems);
        if (reader.ReadByte() != 0)
        {
            throw new UnsupportedArchiveException("7z folders stored in an external stream are not supported");
        }

        info.Folders = new SevenZipFolder[count];
        for (var i = 0; i < count; i++)
        {
            info.Folders[i] = ReadFolder(ref reader);
        }

        if (reader.ReadNumber() != CodersUnpackSize)
        {
            throw reader.Error("UnpackInfo lacks kCodersUnpackSize");
        }

        foreach (var folder in info.Folders)
        {
            folder.UnpackSizes = new long[folder.TotalOutStreams];
            for (var i = 0; i < folder.UnpackSizes.Length; i++)
            {
                folder.UnpackSizes[i] = reader.ReadNumberAsInt64("unpack size");
            }
        }

        for (var id = reader.ReadNumber(); id != End; id = reader.ReadNumber())
        {
            if (id != Crc)
            {
                throw reader.Error($"unexpected property {id} in UnpackInfo");
            }

            var digests = ReadDigests(ref reader, count);
            for (var i = 0; i < count; i++)
            {
                info.Folders[i].Crc = digests[i];
            }
        }
    }

    private static SevenZipFolder ReadFolder(ref HeaderSpanReader reader)
    {
        var coderCount = reader.ReadCount("coder count", MaxCoders);
        if (coderCount == 0)
        {
            throw reader.Error("folder has no coders");
        }

        var coders = new SevenZipCoder[coderCount];
        int totalIn = 0, totalOut = 0;
        for (var i = 0; i < coderCount; i++)
        {
            var flags = reader.ReadByte();
            if ((flags & 0x80) != 0)
            {
                throw new UnsupportedArchiveException("7z alternative coder methods are not supported");
            }

            var methodId = reader.ReadBytes(flags & 0x0F).ToArray();
            var complex = (flags & 0x10) != 0;
            var inStreams = complex ? reader.ReadCount("coder input count", MaxCoders) : 1;
            var outStreams = complex ? reader.ReadCount("coder output count", MaxCoders) : 1;
            var properties = (flags & 0x20) != 0 ? reader.ReadBytes(reader.ReadCount("coder properties size", 1 << 16)).ToArray() : [];
            coders[i] = new SevenZipCoder(methodId, inStreams, outStreams, properties);
            totalIn += inStreams;
            totalOut += outStreams;
        }

        if (totalOut == 0)
        {
            throw reader.Error("folder has no output streams");
        }

        var bindPairs = new (int, int)[totalOut - 1];
        for (var i = 0; i < bindPairs.Length; i++)
        {
            bindPairs[i] = (reader.ReadCount("bind pair input", totalIn - 1), reader.ReadCount("bind pair output", totalOut - 1));
        }

        var packedCount = totalIn - bindPairs.Length;
        if (packedCount < 1)
        {
            throw reader.Error("folder has no packed streams");
        }

        var packed = new int[packedCount];
        if (packedCount == 1)
        {
            for (var i = 0; i < totalIn; i++)
            {
                if (!bindPairs.Any(pair => pair.Item1 == i))
                {
                    packed[0] = i;
                    break;
                }
            }
        }
        else
        {
            for (var i = 0; i < packedCount; i++)
            {
                packed[i] = reader.ReadCount("packed stream index", totalIn - 1);
            }
        }

        return new SevenZipFolder { Coders = coders, BindPairs = bindPairs, PackedStreams = packed };
    }

    private static void ReadSubStreams(ref HeaderSpanReader reader, SevenZipStreamsInfo info)
    {
        var id = reader.ReadNumber();
        if (id == NumUnpackStream)
        {
            for (var f = 0; f < info.Folders.Length; f++)
            {
                info.SubStreamCounts[f] = reader.ReadCount("sub-stream count", MaxItems);
            }

            id = reader.ReadNumber();
        }

        var sizes = new List<long>();
        var hasSizes = id == Size;
        for (var f = 0; f < info.Folders.Length; f++)
        {
            var count = info.SubStreamCounts[f];
            if (count == 0)
            {
                continue;
            }

            long used = 0;
            for (var s = 0; s < count - 1 && hasSizes; s++)
            {
                var size = reader.ReadNumberAsInt64("sub-stream size");
                sizes.Add(size);
                used += size;
            }

            var last = info.Folders[f].UnpackSize - used;
            if (last < 0 || (!hasSizes && count > 1))
            {
                throw reader.Error("sub-stream sizes exceed their folder's unpacked size");
            }

            sizes.Add(last);
        }

        info.SubStreamSizes = [.. sizes];
        if (hasSizes)
        {
            id = reader.ReadNumber();
        }

        // A folder cut into one sub-stream whose folder CRC is known needs no digest of its own here.
        var crcs = new uint?[sizes.Count];
        var knownFromFolder = new bool[sizes.Count];
        var digestCount = 0;
        for (int f = 0, s = 0; f < info.Folders.Length; s += info.SubStreamCounts[f], f++)
        {
            if (info.SubStreamCounts[f] == 1 && info.Folders[f].Crc is { } folderCrc)
            {
                crcs[s] = folderCrc;
                knownFromFolder[s] = true;
            }
            else
            {
                digestCount += info.SubStreamCounts[f];
            }
        }

        while (id != End)
        {
            if (id != Crc)
            {
                throw reader.Error($"unexpected property {id} in SubStreamsInfo");
            }

            var digests = ReadDigests(ref reader, digestCount);
            for (int s = 0, d = 0; s < crcs.Length; s++)
            {
                if (!knownFromFolder[s])
                {
                    crcs[s] = digests[d++];
                }
            }

            id = reader.ReadNumber();
        }

        info.SubStreamCrcs = crcs;
    }
}

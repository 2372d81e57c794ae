using NzbDav.Archives.Entries;
using static NzbDav.Archives.SevenZip.SevenZipPropertyId;

namespace NzbDav.Archives.SevenZip;

/// <summary>Parses the plain 7z Header and matches files to the sub-streams of Copy folders.</summary>
internal static class SevenZipEntryMapper
{
    private const int SignatureHeaderLength = 32;

    public static IReadOnlyList<ArchiveEntry> Map(byte[] header, SevenZipVolumeSet set)
    {
        var reader = new HeaderSpanReader(header, "7z header");
        if (reader.ReadNumber() != Header)
        {
            throw reader.Error("does not start with kHeader");
        }

        var streams = new SevenZipStreamsInfo();
        SevenZipFile[] files = [];
        for (var id = reader.ReadNumber(); id != End; id = reader.ReadNumber())
        {
            if (id == ArchiveProperties)
            {
                SkipArchiveProperties(ref reader);
            }
            else if (id == AdditionalStreamsInfo)
            {
                SevenZipStreamsParser.Read(ref reader);
            }
            else if (id == MainStreamsInfo)
            {
                streams = SevenZipStreamsParser.Read(ref reader);
            }
            else if (id == FilesInfo)
            {
                files = SevenZipFilesParser.Read(ref reader);
            }
            else
            {
                throw reader.Error($"unexpected property {id}");
            }
        }

        return BuildEntries(files, streams, set);
    }

    private static List<ArchiveEntry> BuildEntries(SevenZipFile[] files, SevenZipStreamsInfo streams, SevenZipVolumeSet set)
    {
        var packOffsets = streams.FolderPackOffsets();
        var entries = new List<ArchiveEntry>(files.Length);
        int folder = 0, subStream = 0, sizeIndex = 0;
        long offsetInFolder = 0;
        foreach (var file in files)
        {
            if (file.IsAnti)
            {
                continue;
            }

            var path = ArchivePath.Normalize(file.Name, "7z");
            if (!file.HasStream)
            {
                entries.Add(new ArchiveEntry { Path = path, Size = 0, IsDirectory = file.IsDirectory, Modified = file.Modified, Ranges = [] });
                continue;
            }

            while (folder < streams.Folders.Length && subStream >= streams.SubStreamCounts[folder])
            {
                folder++;
                subStream = 0;
                offsetInFolder = 0;
            }

            if (folder >= streams.Folders.Length || sizeIndex >= streams.SubStreamSizes.Length)
            {
                throw new ArchiveFormatException($"7z entry '{path}' has no data stream: the header lists more files than streams");
            }

            var current = streams.Folders[folder];
            if (!current.IsCopy)
            {
                var why = current.Coders.Any(c => c.IsAes) ? "encrypted" : "compressed";
                throw new UnsupportedArchiveException($"7z entry '{path}' is {why} ({current.Describe()}); only Copy (stored) entries can be streamed");
            }

            var size = streams.SubStreamSizes[sizeIndex++];
            var offset = SignatureHeaderLength + packOffsets[folder] + offsetInFolder;
            entries.Add(new ArchiveEntry
            {
                Path = path,
                Size = size,
                IsDirectory = false,
                Modified = file.Modified,
                Ranges = size == 0 ? [] : set.Map(offset, size),
            });
            offsetInFolder += size;
            subStream++;
        }

        return entries;
    }

    private static void SkipArchiveProperties(ref HeaderSpanReader reader)
    {
        for (var type = reader.ReadNumber(); type != End; type = reader.ReadNumber())
        {
            reader.Skip(reader.ReadCount("archive property size", int.MaxValue));
        }
    }
}

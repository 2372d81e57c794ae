using NzbDav.Archives.Crypto;
using NzbDav.Archives.Entries;
using static NzbDav.Archives.SevenZip.SevenZipPropertyId;

namespace NzbDav.Archives.SevenZip;

/// <summary>
/// Parses the plain 7z Header and matches files to the sub-streams of stored folders: Copy, or Copy
/// encrypted with AES-256. Any other coder means the bytes are not in the volumes as they are.
/// </summary>
internal static class SevenZipEntryMapper
{
    private const int SignatureHeaderLength = 32;
    private const int BlockSize = 16;

    public static async Task<IReadOnlyList<ArchiveEntry>> MapAsync(byte[] header, SevenZipVolumeSet set, SevenZipKeyCache keys, CancellationToken cancellationToken)
    {
        var (files, streams) = Parse(header);
        var placed = Place(files, streams);
        var folders = StoredFolders(placed, streams, keys);
        await SevenZipPasswordCheck.VerifyAsync(folders.Values, placed, streams.SubStreamCrcs, set, keys, cancellationToken).ConfigureAwait(false);

        var entries = new List<ArchiveEntry>(placed.Count);
        foreach (var item in placed)
        {
            if (item.Folder < 0 || item.Size == 0)
            {
                entries.Add(new ArchiveEntry
                {
                    Path = item.Path,
                    Size = 0,
                    IsDirectory = item.File.IsDirectory,
                    Modified = item.File.Modified,
                    Ranges = [],
                });
                continue;
            }

            var folder = folders[item.Folder];
            entries.Add(folder.Aes is null ? Plain(item, folder, set) : Encrypted(item, folder, set, keys));
        }

        return entries;
    }

    private static (SevenZipFile[] Files, SevenZipStreamsInfo Streams) Parse(byte[] header)
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

        return (files, streams);
    }

    /// <summary>Files in archive order, each with its folder, sub-stream and offset in the folder's output (folder -1: no data).</summary>
    private static List<SevenZipPlacedFile> Place(SevenZipFile[] files, SevenZipStreamsInfo streams)
    {
        var placed = new List<SevenZipPlacedFile>(files.Length);
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
                placed.Add(new SevenZipPlacedFile(file, path, -1, -1, 0, 0));
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

            var size = streams.SubStreamSizes[sizeIndex];
            placed.Add(new SevenZipPlacedFile(file, path, folder, sizeIndex, offsetInFolder, size));
            sizeIndex++;
            offsetInFolder += size;
            subStream++;
        }

        return placed;
    }

    /// <summary>Every folder a file reads from, checked to be stored (Copy, optionally under AES), with where its packed bytes lie.</summary>
    private static Dictionary<int, SevenZipStoredFolder> StoredFolders(List<SevenZipPlacedFile> placed, SevenZipStreamsInfo streams, SevenZipKeyCache keys)
    {
        var packed = streams.FolderPackStreams();
        var folders = new Dictionary<int, SevenZipStoredFolder>();
        foreach (var item in placed)
        {
            if (item.Folder < 0 || folders.ContainsKey(item.Folder))
            {
                continue;
            }

            var folder = streams.Folders[item.Folder];
            var chain = folder.Chain();
            var aesCoders = chain?.Where(i => folder.Coders[i].IsAes).ToArray() ?? [];
            if (chain is null || chain.Any(i => !folder.Coders[i].IsCopy && !folder.Coders[i].IsAes) || aesCoders.Length > 1)
            {
                throw new UnsupportedArchiveException($"7z entry '{item.Path}' is compressed ({folder.Describe()}); only Copy (stored) entries can be streamed");
            }

            var (packStart, packSize) = packed[item.Folder];
            var unpackSize = folder.UnpackSize;
            SevenZipAesProperties? aes = null;
            if (aesCoders is [var aesIndex])
            {
                aes = SevenZipAesProperties.Parse(folder.Coders[aesIndex].Properties, $"7z entry '{item.Path}'");
                keys.Resolve(aes, $"7z entry '{item.Path}'");
                if (folder.UnpackSizes[aesIndex] != unpackSize || packSize % BlockSize != 0 || packSize < unpackSize)
                {
                    throw new ArchiveFormatException($"7z entry '{item.Path}': its encrypted folder packs {unpackSize} bytes into {packSize}, not into whole AES blocks");
                }
            }
            else if (packSize < unpackSize)
            {
                throw new ArchiveFormatException($"7z entry '{item.Path}': its stored folder holds {unpackSize} bytes in a packed stream of {packSize}");
            }

            folders[item.Folder] = new SevenZipStoredFolder(item.Folder, SignatureHeaderLength + packStart, packSize, unpackSize, aes);
        }

        return folders;
    }

    private static ArchiveEntry Plain(SevenZipPlacedFile item, SevenZipStoredFolder folder, SevenZipVolumeSet set) => new()
    {
        Path = item.Path,
        Size = item.Size,
        IsDirectory = false,
        Modified = item.File.Modified,
        Ranges = set.Map(folder.PackStart + item.OffsetInFolder, item.Size),
    };

    /// <summary>
    /// An entry inside an AES folder is a slice of one CBC stream. Its ranges start at the block
    /// holding its first byte, or one block earlier when that is not the folder's first block: the
    /// earlier ciphertext block is the chaining value of the next, so nothing has to be read now
    /// to learn it, and its own (meaningless) decryption is skipped with the entry's offset.
    /// </summary>
    private static ArchiveEntry Encrypted(SevenZipPlacedFile item, SevenZipStoredFolder folder, SevenZipVolumeSet set, SevenZipKeyCache keys)
    {
        var aes = folder.Aes!;
        var firstBlock = item.OffsetInFolder / BlockSize;
        var chainBlock = firstBlock == 0 ? 0 : firstBlock - 1;
        var endBlock = (item.OffsetInFolder + item.Size + BlockSize - 1) / BlockSize;
        var offset = item.OffsetInFolder - (chainBlock * BlockSize);
        return new ArchiveEntry
        {
            Path = item.Path,
            Size = item.Size,
            IsDirectory = false,
            Modified = item.File.Modified,
            Ranges = set.Map(folder.PackStart + (chainBlock * BlockSize), (endBlock - chainBlock) * BlockSize),
            Encryption = new ArchiveEncryption
            {
                Cipher = ArchiveCipher.Aes256Cbc,
                Key = keys.Resolve(aes, $"7z entry '{item.Path}'"),
                Iv = firstBlock == 0 ? aes.Iv : new byte[BlockSize],
                PlaintextOffset = offset,
                PasswordVerified = keys.IsVerified(aes),
            },
        };
    }

    private static void SkipArchiveProperties(ref HeaderSpanReader reader)
    {
        for (var type = reader.ReadNumber(); type != End; type = reader.ReadNumber())
        {
            reader.Skip(reader.ReadCount("archive property size", int.MaxValue));
        }
    }
}

namespace NzbDav.Archives.SevenZip;

/// <summary>Pack positions and sizes, folders and their sub-streams (7z StreamsInfo).</summary>
internal sealed class SevenZipStreamsInfo
{
    public long PackPosition { get; set; }

    public long[] PackSizes { get; set; } = [];

    public SevenZipFolder[] Folders { get; set; } = [];

    /// <summary>Number of files each folder's output is cut into (1 when SubStreamsInfo is absent).</summary>
    public int[] SubStreamCounts { get; set; } = [];

    /// <summary>Sizes of all sub-streams, folder by folder.</summary>
    public long[] SubStreamSizes { get; set; } = [];

    /// <summary>Archive offset (after the 32-byte signature header) of each folder's first packed stream.</summary>
    public long[] FolderPackOffsets()
    {
        var offsets = new long[Folders.Length];
        var packIndex = 0;
        var offset = PackPosition;
        for (var f = 0; f < Folders.Length; f++)
        {
            offsets[f] = offset;
            for (var p = 0; p < Folders[f].PackedStreams.Length; p++, packIndex++)
            {
                if (packIndex >= PackSizes.Length)
                {
                    throw new ArchiveFormatException("7z folders use more packed streams than PackInfo lists");
                }

                offset += PackSizes[packIndex];
            }
        }

        return offsets;
    }
}

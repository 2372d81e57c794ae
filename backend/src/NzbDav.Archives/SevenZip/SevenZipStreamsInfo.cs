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

    /// <summary>CRC-32 of each sub-stream's unpacked bytes, when the header records one.</summary>
    public uint?[] SubStreamCrcs { get; set; } = [];

    /// <summary>Offset (after the 32-byte signature header) and size of each folder's first packed stream.</summary>
    public (long Offset, long Size)[] FolderPackStreams()
    {
        var streams = new (long, long)[Folders.Length];
        var packIndex = 0;
        var offset = PackPosition;
        for (var f = 0; f < Folders.Length; f++)
        {
            for (var p = 0; p < Folders[f].PackedStreams.Length; p++, packIndex++)
            {
                if (packIndex >= PackSizes.Length)
                {
                    throw new ArchiveFormatException("7z folders use more packed streams than PackInfo lists");
                }

                if (p == 0)
                {
                    streams[f] = (offset, PackSizes[packIndex]);
                }

                offset += PackSizes[packIndex];
            }
        }

        return streams;
    }
}

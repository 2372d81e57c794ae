namespace NzbDav.Archives.SevenZip;

/// <summary>A 7z folder: a graph of coders turning packed streams into one unpacked stream.</summary>
internal sealed class SevenZipFolder
{
    public required SevenZipCoder[] Coders { get; init; }

    public required (int InIndex, int OutIndex)[] BindPairs { get; init; }

    public required int[] PackedStreams { get; init; }

    public long[] UnpackSizes { get; set; } = [];

    public uint? Crc { get; set; }

    public int TotalOutStreams => Coders.Sum(c => c.OutStreams);

    /// <summary>Streamable: one Copy coder reading one packed stream, so unpacked bytes are the packed bytes.</summary>
    public bool IsCopy => Coders is [{ IsCopy: true, InStreams: 1, OutStreams: 1 }] && PackedStreams.Length == 1;

    /// <summary>Size of the folder's final output: the out stream no bind pair consumes.</summary>
    public long UnpackSize
    {
        get
        {
            for (var i = UnpackSizes.Length - 1; i >= 0; i--)
            {
                if (!BindPairs.Any(pair => pair.OutIndex == i))
                {
                    return UnpackSizes[i];
                }
            }

            throw new ArchiveFormatException("7z folder has no unbound output stream");
        }
    }

    /// <summary>Coder names, for refusal messages.</summary>
    public string Describe() => string.Join(" + ", Coders.Select(c => c.Name));
}

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

    /// <summary>
    /// Coder indexes in decoding order, from the one reading the packed stream to the one giving
    /// the folder's output, or null when the folder is not such a chain (a coder with several
    /// streams, like BCJ2). With one stream per coder, in-stream i and out-stream i are coder i's.
    /// </summary>
    public int[]? Chain()
    {
        if (PackedStreams.Length != 1 || Coders.Any(c => c.InStreams != 1 || c.OutStreams != 1))
        {
            return null;
        }

        var order = new List<int>(Coders.Length);
        var coder = PackedStreams[0];
        while (true)
        {
            if (coder >= Coders.Length || order.Contains(coder))
            {
                throw new ArchiveFormatException("7z folder's coders are bound in a loop or to a coder that does not exist");
            }

            order.Add(coder);
            var consumer = Array.FindIndex(BindPairs, pair => pair.OutIndex == coder);
            if (consumer < 0)
            {
                break;
            }

            coder = BindPairs[consumer].InIndex;
        }

        return order.Count == Coders.Length
            ? [.. order]
            : throw new ArchiveFormatException("7z folder has coders bound to neither its packed stream nor its output");
    }

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

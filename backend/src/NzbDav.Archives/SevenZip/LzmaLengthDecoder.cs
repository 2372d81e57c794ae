namespace NzbDav.Archives.SevenZip;

/// <summary>LZMA match-length model: 8 low and 8 mid symbols per position state, 256 high symbols shared.</summary>
internal sealed class LzmaLengthDecoder
{
    private const int PositionStates = 16;

    private ushort _choice = LzmaRangeDecoder.InitialProbability;
    private ushort _choice2 = LzmaRangeDecoder.InitialProbability;
    private readonly ushort[] _low = Filled(PositionStates << 3);
    private readonly ushort[] _mid = Filled(PositionStates << 3);
    private readonly ushort[] _high = Filled(1 << 8);

    /// <summary>Length minus the minimum match of 2.</summary>
    public int Decode(ref LzmaRangeDecoder range, int posState)
    {
        if (range.DecodeBit(ref _choice) == 0)
        {
            return range.DecodeTree(_low.AsSpan(posState << 3, 8), 3);
        }

        if (range.DecodeBit(ref _choice2) == 0)
        {
            return 8 + range.DecodeTree(_mid.AsSpan(posState << 3, 8), 3);
        }

        return 16 + range.DecodeTree(_high, 8);
    }

    private static ushort[] Filled(int count)
    {
        var probabilities = new ushort[count];
        Array.Fill(probabilities, LzmaRangeDecoder.InitialProbability);
        return probabilities;
    }
}

namespace NzbDav.Archives.SevenZip;

/// <summary>
/// Decodes one raw LZMA (LZMA1) stream of known size into memory. Used only for 7z's compressed
/// header (kEncodedHeader), which is small; the output array doubles as the dictionary.
/// </summary>
internal static class LzmaDecoder
{
    public const int MaxOutput = 64 * 1024 * 1024;

    private const int States = 12;
    private const int MaxPositionStates = 1 << 4;
    private const int LengthToPositionStates = 4;
    private const int EndPositionModelIndex = 14;
    private const int FullDistances = 1 << (EndPositionModelIndex >> 1);
    private const int AlignBits = 4;

    /// <summary>Decodes <paramref name="input"/> with the 5-byte coder <paramref name="properties"/> (lc/lp/pb byte, dictionary size).</summary>
    public static byte[] Decode(ReadOnlySpan<byte> properties, ReadOnlySpan<byte> input, long outputSize)
    {
        if (properties.Length < 5 || properties[0] >= 9 * 5 * 5)
        {
            throw new ArchiveFormatException("7z LZMA coder properties are invalid");
        }

        if (outputSize is < 0 or > MaxOutput)
        {
            throw new ArchiveFormatException($"7z LZMA header stream of {outputSize} bytes is outside 0..{MaxOutput}");
        }

        int lc = properties[0] % 9, lp = properties[0] / 9 % 5, pb = properties[0] / 45;
        var output = new byte[outputSize];
        if (outputSize == 0)
        {
            return output;
        }

        var range = new LzmaRangeDecoder(input);
        var isMatch = Probabilities(States * MaxPositionStates);
        var isRep = Probabilities(States);
        var isRepG0 = Probabilities(States);
        var isRepG1 = Probabilities(States);
        var isRepG2 = Probabilities(States);
        var isRep0Long = Probabilities(States * MaxPositionStates);
        var positionSlots = Probabilities(LengthToPositionStates << 6);
        var positionSpecial = Probabilities(1 + FullDistances - EndPositionModelIndex);
        var align = Probabilities(1 << AlignBits);
        var literals = Probabilities(0x300 << (lc + lp));
        var matchLength = new LzmaLengthDecoder();
        var repLength = new LzmaLengthDecoder();

        int pbMask = (1 << pb) - 1, lpMask = (1 << lp) - 1;
        uint rep0 = 0, rep1 = 0, rep2 = 0, rep3 = 0;
        var state = 0;
        var position = 0;
        while (position < output.Length)
        {
            var posState = position & pbMask;
            if (range.DecodeBit(ref isMatch[(state << 4) + posState]) == 0)
            {
                var previous = position > 0 ? output[position - 1] : 0;
                var literal = literals.AsSpan(0x300 * (((position & lpMask) << lc) + (previous >> (8 - lc))), 0x300);
                output[position] = state < 7
                    ? (byte)range.DecodeTree(literal, 8)
                    : DecodeMatchedLiteral(ref range, literal, output[CheckDistance(position, rep0)]);
                position++;
                state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
                continue;
            }

            int length;
            if (range.DecodeBit(ref isRep[state]) != 0)
            {
                if (range.DecodeBit(ref isRepG0[state]) == 0)
                {
                    if (range.DecodeBit(ref isRep0Long[(state << 4) + posState]) == 0)
                    {
                        state = state < 7 ? 9 : 11;
                        output[position] = output[CheckDistance(position, rep0)];
                        position++;
                        continue;
                    }
                }
                else
                {
                    uint distance;
                    if (range.DecodeBit(ref isRepG1[state]) == 0)
                    {
                        distance = rep1;
                    }
                    else
                    {
                        if (range.DecodeBit(ref isRepG2[state]) == 0)
                        {
                            distance = rep2;
                        }
                        else
                        {
                            distance = rep3;
                            rep3 = rep2;
                        }

                        rep2 = rep1;
                    }

                    rep1 = rep0;
                    rep0 = distance;
                }

                length = repLength.Decode(ref range, posState);
                state = state < 7 ? 8 : 11;
            }
            else
            {
                rep3 = rep2;
                rep2 = rep1;
                rep1 = rep0;
                length = matchLength.Decode(ref range, posState);
                state = state < 7 ? 7 : 10;
                rep0 = DecodeDistance(ref range, length, positionSlots, positionSpecial, align);
                if (rep0 == uint.MaxValue)
                {
                    throw new ArchiveFormatException("7z LZMA stream ended (end marker) before its declared size");
                }
            }

            var source = CheckDistance(position, rep0);
            for (var copy = length + 2; copy > 0 && position < output.Length; copy--)
            {
                output[position++] = output[source++];
            }
        }

        return output;
    }

    private static int CheckDistance(int position, uint distance) =>
        distance < (uint)position ? position - (int)distance - 1 : throw new ArchiveFormatException("7z LZMA stream refers to data before its start; it is corrupt");

    private static byte DecodeMatchedLiteral(ref LzmaRangeDecoder range, Span<ushort> probabilities, int matchByte)
    {
        var symbol = 1;
        while (symbol < 0x100)
        {
            var matchBit = (matchByte >> 7) & 1;
            matchByte <<= 1;
            var bit = range.DecodeBit(ref probabilities[((1 + matchBit) << 8) + symbol]);
            symbol = (symbol << 1) | bit;
            if (matchBit != bit)
            {
                break;
            }
        }

        while (symbol < 0x100)
        {
            symbol = (symbol << 1) | range.DecodeBit(ref probabilities[symbol]);
        }

        return (byte)symbol;
    }

    private static uint DecodeDistance(ref LzmaRangeDecoder range, int length, ushort[] slots, ushort[] special, ushort[] align)
    {
        var lengthState = Math.Min(length, LengthToPositionStates - 1);
        var slot = range.DecodeTree(slots.AsSpan(lengthState << 6, 1 << 6), 6);
        if (slot < 4)
        {
            return (uint)slot;
        }

        var directBits = (slot >> 1) - 1;
        var distance = (uint)((2 | (slot & 1)) << directBits);
        if (slot < EndPositionModelIndex)
        {
            return distance + (uint)range.DecodeReverseTree(special.AsSpan((int)distance - slot), directBits);
        }

        distance += range.DecodeDirectBits(directBits - AlignBits) << AlignBits;
        return distance + (uint)range.DecodeReverseTree(align, AlignBits);
    }

    private static ushort[] Probabilities(int count)
    {
        var probabilities = new ushort[count];
        Array.Fill(probabilities, LzmaRangeDecoder.InitialProbability);
        return probabilities;
    }
}

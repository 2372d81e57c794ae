namespace NzbDav.Archives.SevenZip;

/// <summary>
/// LZMA's binary range decoder: 11-bit adaptive probabilities, adaptation shift 5, normalised
/// whenever the range drops below 2^24. Input overruns are format errors.
/// </summary>
internal ref struct LzmaRangeDecoder
{
    public const int ProbabilityBits = 11;
    public const ushort InitialProbability = 1 << (ProbabilityBits - 1);

    private const uint TopValue = 1u << 24;
    private const int MoveBits = 5;

    private readonly ReadOnlySpan<byte> _input;
    private int _position;
    private uint _range;
    private uint _code;

    public LzmaRangeDecoder(ReadOnlySpan<byte> input)
    {
        if (input.Length < 5 || input[0] != 0)
        {
            throw new ArchiveFormatException("7z LZMA stream does not start with a valid range coder header");
        }

        _input = input;
        _position = 5;
        _range = uint.MaxValue;
        _code = (uint)(input[1] << 24 | input[2] << 16 | input[3] << 8 | input[4]);
    }

    public int DecodeBit(ref ushort probability)
    {
        var bound = (_range >> ProbabilityBits) * probability;
        int bit;
        if (_code < bound)
        {
            _range = bound;
            probability += (ushort)(((1 << ProbabilityBits) - probability) >> MoveBits);
            bit = 0;
        }
        else
        {
            _range -= bound;
            _code -= bound;
            probability -= (ushort)(probability >> MoveBits);
            bit = 1;
        }

        Normalize();
        return bit;
    }

    public uint DecodeDirectBits(int count)
    {
        uint result = 0;
        for (; count > 0; count--)
        {
            _range >>= 1;
            var bit = _code >= _range ? 1u : 0u;
            if (bit != 0)
            {
                _code -= _range;
            }

            result = (result << 1) | bit;
            Normalize();
        }

        return result;
    }

    /// <summary>Symbol of <paramref name="bits"/> bits, most significant first, from a probability tree rooted at index 1.</summary>
    public int DecodeTree(Span<ushort> probabilities, int bits)
    {
        var node = 1;
        for (var i = 0; i < bits; i++)
        {
            node = (node << 1) | DecodeBit(ref probabilities[node]);
        }

        return node - (1 << bits);
    }

    /// <summary>Symbol of <paramref name="bits"/> bits, least significant first.</summary>
    public int DecodeReverseTree(Span<ushort> probabilities, int bits)
    {
        var node = 1;
        var symbol = 0;
        for (var i = 0; i < bits; i++)
        {
            var bit = DecodeBit(ref probabilities[node]);
            node = (node << 1) | bit;
            symbol |= bit << i;
        }

        return symbol;
    }

    private void Normalize()
    {
        if (_range >= TopValue)
        {
            return;
        }

        if (_position >= _input.Length)
        {
            throw new ArchiveFormatException("7z LZMA stream ends before its declared size was decoded");
        }

        _range <<= 8;
        _code = (_code << 8) | _input[_position++];
    }
}

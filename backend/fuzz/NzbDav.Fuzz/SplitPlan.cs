namespace NzbDav.Fuzz;

/// <summary>
/// Deterministic chunk sizes drawn from a seed the input carries (xorshift32), so a crashing input
/// replays with the same split points. Sizes are mostly small (1–16) to hit every boundary, sometimes large.
/// </summary>
internal sealed class SplitPlan(uint seed)
{
    private uint _state = seed == 0 ? 0x9E3779B9u : seed;

    public int Next(int max)
    {
        _state ^= _state << 13;
        _state ^= _state >> 17;
        _state ^= _state << 5;
        var size = (_state & 3) == 0 ? (int)(_state >> 8) % 4096 + 1 : (int)(_state >> 8) % 16 + 1;
        return Math.Min(size, max);
    }

    /// <summary>The first four bytes of <paramref name="input"/> as a seed (missing bytes are zero).</summary>
    public static uint SeedOf(ReadOnlySpan<byte> input)
    {
        uint seed = 0;
        for (var i = 0; i < 4 && i < input.Length; i++)
        {
            seed |= (uint)input[i] << (8 * i);
        }
        return seed;
    }
}

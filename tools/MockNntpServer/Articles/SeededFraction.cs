namespace NzbDav.MockNntp.Articles;

/// <summary>A deterministic value in [0, 1) from a seed and two coordinates (SplitMix64 finaliser).</summary>
internal static class SeededFraction
{
    public static double Of(int seed, int a, int b)
    {
        var x = ((ulong)(uint)seed << 32) ^ ((ulong)(uint)a * 0x9E3779B97F4A7C15UL) ^ (ulong)(uint)b;
        x ^= x >> 30;
        x *= 0xBF58476D1CE4E5B9UL;
        x ^= x >> 27;
        x *= 0x94D049BB133111EBUL;
        x ^= x >> 31;
        return (x >> 11) * (1.0 / (1UL << 53));
    }
}

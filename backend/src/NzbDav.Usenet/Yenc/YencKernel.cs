namespace NzbDav.Usenet.Yenc;

/// <summary>Which inner loop decodes the bulk of the data lines.</summary>
internal enum YencKernel
{
    /// <summary>One byte at a time; runs everywhere and handles every case.</summary>
    Scalar,

    /// <summary>16 bytes per step (SSSE3 byte shuffle for compaction).</summary>
    Vector128,

    /// <summary>32 bytes per step (AVX2 byte shuffle, one table entry per 16-byte lane).</summary>
    Vector256,

    /// <summary>64 bytes per step (AVX-512 VBMI2 byte compress).</summary>
    Vector512,
}

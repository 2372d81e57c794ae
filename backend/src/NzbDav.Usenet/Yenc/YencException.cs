namespace NzbDav.Usenet.Yenc;

/// <summary>An article's yEnc content is malformed, or its size or CRC does not match its trailer.</summary>
public class YencException(string message, Exception? inner = null) : Exception(message, inner);

/// <summary>The decoded part's CRC-32 differs from the trailer's <c>pcrc32</c>.</summary>
public sealed class YencCrcMismatchException(uint expected, uint actual)
    : YencException($"yEnc part CRC-32 mismatch: trailer says {expected:x8}, decoded data is {actual:x8}")
{
    public uint Expected { get; } = expected;
    public uint Actual { get; } = actual;
}

namespace NzbDav.Archives.Release;

/// <summary>The "first 16 KiB" MD5 that PAR2 file descriptions carry, computed the same way for matching.</summary>
public static class Par2Hashes
{
    /// <summary>PAR2 hashes this many leading bytes of each file for quick identification.</summary>
    public const int QuickHashLength = 16 * 1024;

    /// <summary>
    /// MD5 of the first 16 KiB of a file, or of the whole file when it is shorter.
    /// <paramref name="head"/> is the file's leading bytes (more than 16 KiB is fine).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The length is negative.</exception>
    /// <exception cref="ArgumentException">
    /// <paramref name="head"/> holds fewer bytes than the hash needs; hashing them would silently give a
    /// value that never matches.
    /// </exception>
    public static Hash16 First16KMd5(ReadOnlySpan<byte> head, long fileLength)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(fileLength);
        var needed = (int)Math.Min(QuickHashLength, fileLength);
        if (head.Length < needed)
        {
            throw new ArgumentException(
                "The 16 KiB hash needs " + needed + " leading bytes of the file, only " + head.Length + " were given.",
                nameof(head));
        }

        return Hash16.Md5Of(head[..needed]);
    }
}

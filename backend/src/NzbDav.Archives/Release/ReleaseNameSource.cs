namespace NzbDav.Archives.Release;

/// <summary>Where a release file's final name came from, best first.</summary>
public enum ReleaseNameSource
{
    /// <summary>A PAR2 File Description whose 16 KiB hash (and length) matched the file.</summary>
    Par2,

    /// <summary>The quoted name in the NZB subject.</summary>
    Subject,

    /// <summary>The <c>name=</c> of the first article's yEnc header.</summary>
    Yenc,

    /// <summary>The job's name, given to an obfuscated video nothing better could name.</summary>
    JobName,

    /// <summary>No name at all was known; a numbered placeholder.</summary>
    Fallback,
}

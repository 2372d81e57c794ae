namespace NzbDav.Server.Configuration;

/// <summary>What addfile/addurl do with an NZB whose bytes match a job already in the queue or history.</summary>
public enum DuplicateNzbPolicy
{
    /// <summary>Accept it as a new job (SABnzbd's default).</summary>
    NewJob,

    /// <summary>Answer <c>status:false</c> with the reason.</summary>
    Refuse,
}

namespace NzbDav.Usenet.Health;

/// <summary>What a STAT sweep learned about one article.</summary>
public enum ArticleAvailability : byte
{
    /// <summary>No provider could answer (timeouts, faults, cancelled): nothing is known; ask again later.</summary>
    Unknown = 0,

    /// <summary>At least one provider has it.</summary>
    Present = 1,

    /// <summary>Every provider in force, backups included, answered 430 and none failed.</summary>
    Missing = 2,
}

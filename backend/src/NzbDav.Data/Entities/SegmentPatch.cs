namespace NzbDav.Data.Entities;

/// <summary>
/// A segment every provider lost, rebuilt by a PAR2 repair: its decoded bytes are in <see cref="Data"/>
/// (the library's copy, which every node reads) and in a patch file under each node's data directory
/// (<see cref="File"/>, at <see cref="Offset"/>: the copy reads are served from), checked against
/// <see cref="Crc32"/> on every read. Keyed by job and message-id: a segment at a volume boundary
/// belongs to two library files.
/// </summary>
public sealed class SegmentPatch
{
    public Guid JobId { get; set; }

    /// <summary>Without angle brackets, as in the layouts.</summary>
    public required string MessageId { get; set; }

    /// <summary>The patch file's name inside the job's patch directory.</summary>
    public required string File { get; set; }

    public long Offset { get; set; }

    /// <summary>The segment's decoded length.</summary>
    public int Length { get; set; }

    /// <summary>CRC-32 of the bytes, as an unsigned value stored in a signed column.</summary>
    public long Crc32 { get; set; }

    /// <summary>UTC when the repair stored it.</summary>
    public DateTime CreatedAt { get; set; }

    /// <summary>
    /// The decoded bytes, from which a node that did not run the repair writes its own patch file;
    /// null for patches stored before the library kept them (those live only in the repairing node's file).
    /// </summary>
    public byte[]? Data { get; set; }
}

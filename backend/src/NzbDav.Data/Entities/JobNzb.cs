namespace NzbDav.Data.Entities;

/// <summary>The NZB exactly as received, gzip-compressed; stored with its job in one transaction.</summary>
public sealed class JobNzb
{
    public Guid JobId { get; set; }

    public required byte[] GzipData { get; set; }

    /// <summary>Uncompressed length, to size the read buffer and report the NZB size.</summary>
    public long Length { get; set; }
}

namespace NzbDav.Archives.Entries;

/// <summary>A run of an entry's stored bytes: <paramref name="Length"/> bytes at <paramref name="Offset"/> of volume <paramref name="VolumeIndex"/>.</summary>
public readonly record struct ArchiveByteRange(int VolumeIndex, long Offset, long Length);

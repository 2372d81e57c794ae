namespace NzbDav.Archives.Entries;

/// <summary>Archive container recognised from its magic bytes.</summary>
public enum ArchiveFormat
{
    /// <summary>Not an archive this library reads.</summary>
    None,

    /// <summary>RAR 2.9 – 4.x headers (marker <c>Rar!\x1A\x07\x00</c>).</summary>
    Rar4,

    /// <summary>RAR 5.0 headers (signature <c>Rar!\x1A\x07\x01\x00</c>).</summary>
    Rar5,

    /// <summary>7-Zip (signature <c>7z\xBC\xAF\x27\x1C</c>).</summary>
    SevenZip,
}

namespace NzbDav.Archives.SevenZip;

/// <summary>Property ids of 7z headers (7zFormat.txt).</summary>
internal static class SevenZipPropertyId
{
    public const ulong End = 0x00;
    public const ulong Header = 0x01;
    public const ulong ArchiveProperties = 0x02;
    public const ulong AdditionalStreamsInfo = 0x03;
    public const ulong MainStreamsInfo = 0x04;
    public const ulong FilesInfo = 0x05;
    public const ulong PackInfo = 0x06;
    public const ulong UnpackInfo = 0x07;
    public const ulong SubStreamsInfo = 0x08;
    public const ulong Size = 0x09;
    public const ulong Crc = 0x0A;
    public const ulong Folder = 0x0B;
    public const ulong CodersUnpackSize = 0x0C;
    public const ulong NumUnpackStream = 0x0D;
    public const ulong EmptyStream = 0x0E;
    public const ulong EmptyFile = 0x0F;
    public const ulong Anti = 0x10;
    public const ulong Name = 0x11;
    public const ulong ModifiedTime = 0x14;
    public const ulong WinAttributes = 0x15;
    public const ulong EncodedHeader = 0x17;
}

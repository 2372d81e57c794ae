namespace NzbDav.Archives.Release;

/// <summary>PAR 2.0 wire constants: packet magic, header layout and the packet type signatures read here.</summary>
internal static class Par2PacketTypes
{
    public const int HeaderLength = 64;
    public const int LengthOffset = 8;
    public const int PacketMd5Offset = 16;
    public const int RecoverySetIdOffset = 32;
    public const int TypeOffset = 48;

    public static ReadOnlySpan<byte> Magic => "PAR2\0PKT"u8;
    public static ReadOnlySpan<byte> Main => "PAR 2.0\0Main\0\0\0\0"u8;
    public static ReadOnlySpan<byte> FileDescription => "PAR 2.0\0FileDesc"u8;
    public static ReadOnlySpan<byte> UnicodeFileName => "PAR 2.0\0UniFileN"u8;
    public static ReadOnlySpan<byte> Creator => "PAR 2.0\0Creator\0"u8;
    public static ReadOnlySpan<byte> SliceChecksums => "PAR 2.0\0IFSC\0\0\0\0"u8;
    public static ReadOnlySpan<byte> RecoverySlice => "PAR 2.0\0RecvSlic"u8;

    /// <summary>True for the small packets whose bodies are worth reading and verifying.</summary>
    public static bool IsParsed(ReadOnlySpan<byte> type) =>
        type.SequenceEqual(FileDescription) || type.SequenceEqual(Main) ||
        type.SequenceEqual(UnicodeFileName) || type.SequenceEqual(Creator);
}

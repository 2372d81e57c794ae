using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Rar;

/// <summary>Fields every RAR5 header starts with (after CRC32 and header size).</summary>
internal readonly record struct Rar5BlockHeader(ulong Type, ulong Flags, int ExtraSize, long DataSize, int FieldsStart)
{
    public const ulong TypeMain = 1;
    public const ulong TypeFile = 2;
    public const ulong TypeService = 3;
    public const ulong TypeEncryption = 4;
    public const ulong TypeEnd = 5;

    private const ulong HasExtraArea = 0x0001;
    private const ulong HasDataArea = 0x0002;
    private const ulong SplitBeforeFlag = 0x0008;
    private const ulong SplitAfterFlag = 0x0010;

    public bool SplitBefore => (Flags & SplitBeforeFlag) != 0;

    public bool SplitAfter => (Flags & SplitAfterFlag) != 0;

    /// <summary>Parses <paramref name="body"/>: the header from its type field to the end of its extra area.</summary>
    public static Rar5BlockHeader Parse(ReadOnlySpan<byte> body, string what)
    {
        var reader = new HeaderSpanReader(body, what);
        var type = reader.ReadVInt();
        var flags = reader.ReadVInt();
        var extraSize = (flags & HasExtraArea) != 0 ? reader.ReadVIntAsInt32("extra area size") : 0;
        var dataSize = (flags & HasDataArea) != 0 ? reader.ReadVIntAsInt64("data size") : 0;
        if (extraSize > body.Length - reader.Position)
        {
            throw reader.Error($"extra area of {extraSize} bytes is larger than the rest of the header");
        }

        return new Rar5BlockHeader(type, flags, extraSize, dataSize, reader.Position);
    }
}

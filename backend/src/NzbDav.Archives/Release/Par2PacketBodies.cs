using System.Buffers.Binary;
using System.Text;

namespace NzbDav.Archives.Release;

/// <summary>Decodes the bodies of verified Main, File Description, Unicode name and Creator packets.</summary>
internal static class Par2PacketBodies
{
    private const int FileDescriptionFixedLength = 16 + 16 + 16 + 8;
    private const int MainFixedLength = 8 + 4;

    private static readonly Encoding StrictUtf8 = new UTF8Encoding(false, throwOnInvalidBytes: true);

    /// <summary>Adds the packet's content to <paramref name="builder"/>; false when the body is inconsistent.</summary>
    public static bool TryAdd(ReadOnlySpan<byte> packet, Par2ResultBuilder builder)
    {
        var setId = Hash16.FromBytes(packet[Par2PacketTypes.RecoverySetIdOffset..]);
        var type = packet.Slice(Par2PacketTypes.TypeOffset, 16);
        var body = packet[Par2PacketTypes.HeaderLength..];
        if (type.SequenceEqual(Par2PacketTypes.FileDescription))
        {
            return TryAddFileDescription(setId, body, builder);
        }

        if (type.SequenceEqual(Par2PacketTypes.Main))
        {
            return TryAddMain(setId, body, builder);
        }

        if (type.SequenceEqual(Par2PacketTypes.UnicodeFileName))
        {
            if (body.Length < 16)
            {
                return false;
            }

            var name = Encoding.Unicode.GetString(TrimNuls16(body[16..]));
            builder.AddUnicodeName(setId, Hash16.FromBytes(body), name);
            return true;
        }

        builder.Creator ??= DecodeName(body);
        return true;
    }

    /// <summary>PAR2 says ASCII; posters write UTF-8, and old tools wrote a local code page (read as Latin-1).</summary>
    internal static string DecodeName(ReadOnlySpan<byte> raw)
    {
        var end = raw.IndexOf((byte)0);
        var text = end < 0 ? raw : raw[..end];
        try
        {
            return StrictUtf8.GetString(text);
        }
        catch (DecoderFallbackException)
        {
            return Encoding.Latin1.GetString(text);
        }
    }

    private static bool TryAddFileDescription(Hash16 setId, ReadOnlySpan<byte> body, Par2ResultBuilder builder)
    {
        if (body.Length < FileDescriptionFixedLength)
        {
            return false;
        }

        var length = BinaryPrimitives.ReadUInt64LittleEndian(body[48..]);
        var name = DecodeName(body[FileDescriptionFixedLength..]);
        if (length > long.MaxValue || name.Length == 0)
        {
            return false;
        }

        builder.AddFile(new Par2FileDescription(
            setId,
            Hash16.FromBytes(body),
            Hash16.FromBytes(body[16..]),
            Hash16.FromBytes(body[32..]),
            (long)length,
            name));
        return true;
    }

    private static bool TryAddMain(Hash16 setId, ReadOnlySpan<byte> body, Par2ResultBuilder builder)
    {
        if (body.Length < MainFixedLength)
        {
            return false;
        }

        var sliceSize = BinaryPrimitives.ReadUInt64LittleEndian(body);
        var recoveryCount = BinaryPrimitives.ReadUInt32LittleEndian(body[8..]);
        var ids = body[MainFixedLength..];
        if (sliceSize == 0 || sliceSize % 4 != 0 || sliceSize > long.MaxValue ||
            ids.Length % 16 != 0 || recoveryCount > ids.Length / 16)
        {
            return false;
        }

        var recovery = new Hash16[recoveryCount];
        var nonRecovery = new Hash16[ids.Length / 16 - recoveryCount];
        for (var i = 0; i < recovery.Length; i++)
        {
            recovery[i] = Hash16.FromBytes(ids[(i * 16)..]);
        }

        for (var i = 0; i < nonRecovery.Length; i++)
        {
            nonRecovery[i] = Hash16.FromBytes(ids[((recovery.Length + i) * 16)..]);
        }

        builder.AddMain(new Par2MainPacket(setId, (long)sliceSize, recovery, nonRecovery));
        return true;
    }

    private static ReadOnlySpan<byte> TrimNuls16(ReadOnlySpan<byte> utf16)
    {
        var even = utf16[..(utf16.Length & ~1)];
        while (even.Length >= 2 && even[^1] == 0 && even[^2] == 0)
        {
            even = even[..^2];
        }

        return even;
    }
}

using System.Buffers.Binary;

namespace NzbDav.Archives.Release;

/// <summary>
/// Pure PAR2 packet recogniser over a window of bytes; the drivers in <see cref="Par2Reader"/> own the I/O.
/// Keeping the decision logic free of I/O lets byte arrays and (seekable or not) streams share it.
/// </summary>
internal static class Par2PacketScanner
{
    /// <summary>Largest packet whose body is read; a Main packet this size lists ~260k files.</summary>
    public const int MaxParsedPacketLength = 4 * 1024 * 1024;

    /// <param name="window">Bytes from the current position.</param>
    /// <param name="remaining">Bytes from the window's start to the end of data, or -1 while unknown.</param>
    /// <param name="builder">Collects packets and counters.</param>
    public static Par2Step Step(ReadOnlySpan<byte> window, long remaining, Par2ResultBuilder builder)
    {
        var atEnd = remaining == window.Length;
        var magic = Par2PacketTypes.Magic;
        var at = window.IndexOf(magic);
        if (at < 0)
        {
            // The last 7 bytes may be the start of a magic split across reads.
            var keep = atEnd ? 0 : Math.Min(window.Length, magic.Length - 1);
            var drop = window.Length - keep;
            if (drop > 0)
            {
                builder.GarbageBytes += drop;
                return new Par2Step(Par2StepKind.Consume, drop);
            }

            return atEnd ? new Par2Step(Par2StepKind.End, 0) : new Par2Step(Par2StepKind.NeedMore, magic.Length);
        }

        if (at > 0)
        {
            builder.GarbageBytes += at;
            return new Par2Step(Par2StepKind.Consume, at);
        }

        if (window.Length < Par2PacketTypes.HeaderLength)
        {
            if (atEnd)
            {
                builder.Truncated = true;
                return new Par2Step(Par2StepKind.End, 0);
            }

            return new Par2Step(Par2StepKind.NeedMore, Par2PacketTypes.HeaderLength);
        }

        return StepPacket(window, remaining, builder);
    }

    private static Par2Step StepPacket(ReadOnlySpan<byte> window, long remaining, Par2ResultBuilder builder)
    {
        var resync = new Par2Step(Par2StepKind.Consume, Par2PacketTypes.Magic.Length);
        var length = BinaryPrimitives.ReadUInt64LittleEndian(window[Par2PacketTypes.LengthOffset..]);
        if (length < Par2PacketTypes.HeaderLength || length % 4 != 0 || length > long.MaxValue)
        {
            builder.CorruptPackets++;
            return resync;
        }

        if (remaining >= 0 && (long)length > remaining)
        {
            // Either a cut-off file or a damaged length field; resynchronising finds any packet after it.
            builder.Truncated = true;
            return resync;
        }

        var type = window.Slice(Par2PacketTypes.TypeOffset, 16);
        if (!Par2PacketTypes.IsParsed(type))
        {
            builder.SkippedPackets++;
            return new Par2Step(Par2StepKind.Skip, (long)length);
        }

        if (length > MaxParsedPacketLength)
        {
            builder.CorruptPackets++;
            return resync;
        }

        var packetLength = (int)length;
        if (window.Length < packetLength)
        {
            return new Par2Step(Par2StepKind.NeedMore, packetLength);
        }

        var packet = window[..packetLength];
        var stored = Hash16.FromBytes(packet[Par2PacketTypes.PacketMd5Offset..]);
        if (Hash16.Md5Of(packet[Par2PacketTypes.RecoverySetIdOffset..]) != stored)
        {
            builder.CorruptPackets++;
            return resync;
        }

        if (!Par2PacketBodies.TryAdd(packet, builder))
        {
            builder.CorruptPackets++;
            return resync;
        }

        builder.ValidPackets++;
        return new Par2Step(Par2StepKind.Consume, packetLength);
    }
}

using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using NzbDav.Archives.Release;

namespace NzbDav.Archives.Par2;

/// <summary>A PAR2 packet whose MD5 matched: its set, type and body (valid until the reader moves on).</summary>
internal readonly record struct Par2Packet(Hash16 SetId, Par2PacketKind Kind, ReadOnlyMemory<byte> Body, long Offset);

internal enum Par2PacketKind
{
    Other,
    Main,
    FileDescription,
    SliceChecksums,
    RecoverySlice,
    UnicodeFileName,
    Creator,
}

/// <summary>
/// Reads the packets of one PAR2 file front to back, checking each packet's MD5; what is damaged is
/// counted and passed over (the reader looks for the next packet's magic), so one bad article costs
/// only the packets it touched.
/// </summary>
internal sealed class Par2PacketReader
{
    /// <summary>The largest packet read: a recovery slice of 64 MiB and its header.</summary>
    public const int MaxPacketLength = (64 * 1024 * 1024) + 128;

    public int CorruptPackets { get; private set; }

    public long GarbageBytes { get; private set; }

    public bool Truncated { get; private set; }

    public async IAsyncEnumerable<Par2Packet> ReadAsync(Stream stream, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(stream);
        var buffer = ArrayPool<byte>.Shared.Rent(256 * 1024);
        var start = 0;
        var end = 0;
        long position = 0; // stream offset of buffer[start]
        var eof = false;
        try
        {
            while (true)
            {
                if (!await FillAsync(Par2PacketTypes.HeaderLength).ConfigureAwait(false))
                {
                    if (end > start)
                    {
                        SkipGarbageOrTruncated();
                    }

                    yield break;
                }

                var window = buffer.AsSpan(start, end - start);
                var at = window.IndexOf(Par2PacketTypes.Magic);
                if (at != 0)
                {
                    // Garbage before the next packet (or none in this window: keep a possible split magic).
                    var drop = at > 0 ? at : window.Length - (Par2PacketTypes.Magic.Length - 1);
                    GarbageBytes += drop;
                    start += drop;
                    position += drop;
                    continue;
                }

                var length = BinaryPrimitives.ReadUInt64LittleEndian(window[Par2PacketTypes.LengthOffset..]);
                if (length < Par2PacketTypes.HeaderLength || length % 4 != 0 || length > MaxPacketLength)
                {
                    CorruptPackets++;
                    Resync();
                    continue;
                }

                if (!await FillAsync((int)length).ConfigureAwait(false))
                {
                    Truncated = true;
                    Resync();
                    continue;
                }

                var packet = buffer.AsMemory(start, (int)length);
                var span = packet.Span;
                if (Hash16.Md5Of(span[Par2PacketTypes.RecoverySetIdOffset..]) != Hash16.FromBytes(span[Par2PacketTypes.PacketMd5Offset..]))
                {
                    CorruptPackets++;
                    Resync();
                    continue;
                }

                var setId = Hash16.FromBytes(span[Par2PacketTypes.RecoverySetIdOffset..]);
                var kind = KindOf(span.Slice(Par2PacketTypes.TypeOffset, 16));
                var offset = position;
                start += (int)length;
                position += (long)length;
                yield return new Par2Packet(setId, kind, packet[Par2PacketTypes.HeaderLength..], offset);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }

        // Makes buffer[start..] hold at least `count` bytes; false at the end of the stream. The
        // buffer grows with the bytes that arrive, never to a length a header only claims.
        async ValueTask<bool> FillAsync(int count)
        {
            while (end - start < count && !eof)
            {
                if (end == buffer.Length)
                {
                    if (start > 0)
                    {
                        buffer.AsSpan(start, end - start).CopyTo(buffer);
                        end -= start;
                        start = 0;
                    }
                    else
                    {
                        var larger = ArrayPool<byte>.Shared.Rent(Math.Min(Math.Max(count, 1024), buffer.Length * 2));
                        buffer.AsSpan(0, end).CopyTo(larger);
                        ArrayPool<byte>.Shared.Return(buffer);
                        buffer = larger;
                    }
                }

                var read = await stream.ReadAsync(buffer.AsMemory(end), cancellationToken).ConfigureAwait(false);
                if (read == 0)
                {
                    eof = true;
                }

                end += read;
            }

            return end - start >= count;
        }

        void Resync()
        {
            // Past this magic: the next packet is found by its own.
            start += Par2PacketTypes.Magic.Length;
            position += Par2PacketTypes.Magic.Length;
        }

        void SkipGarbageOrTruncated()
        {
            var rest = buffer.AsSpan(start, end - start);
            if (rest.IndexOf(Par2PacketTypes.Magic) >= 0)
            {
                Truncated = true;
            }
            else
            {
                GarbageBytes += rest.Length;
            }
        }
    }

    private static Par2PacketKind KindOf(ReadOnlySpan<byte> type)
    {
        if (type.SequenceEqual(Par2PacketTypes.RecoverySlice))
        {
            return Par2PacketKind.RecoverySlice;
        }

        if (type.SequenceEqual(Par2PacketTypes.SliceChecksums))
        {
            return Par2PacketKind.SliceChecksums;
        }

        if (type.SequenceEqual(Par2PacketTypes.FileDescription))
        {
            return Par2PacketKind.FileDescription;
        }

        if (type.SequenceEqual(Par2PacketTypes.Main))
        {
            return Par2PacketKind.Main;
        }

        if (type.SequenceEqual(Par2PacketTypes.UnicodeFileName))
        {
            return Par2PacketKind.UnicodeFileName;
        }

        return type.SequenceEqual(Par2PacketTypes.Creator) ? Par2PacketKind.Creator : Par2PacketKind.Other;
    }
}

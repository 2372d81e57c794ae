using System.Buffers;

namespace NzbDav.Archives.Release;

/// <summary>
/// Reads PAR2 packets (Main, File Description, Unicode file name, Creator) from a whole PAR2 file or from
/// its first bytes. Packet MD5s are verified; recovery slices and other bulky packets are seeked over
/// unread; garbage between packets is skipped by resynchronising on the packet magic.
/// </summary>
public static class Par2Reader
{
    private const int InitialBufferSize = 64 * 1024;
    private const int DiscardChunk = 64 * 1024;

    /// <summary>Reads the packets in <paramref name="data"/>.</summary>
    /// <exception cref="ArchiveFormatException">The data holds no PAR2 packet at all.</exception>
    public static Par2ReadResult Read(ReadOnlySpan<byte> data)
    {
        var builder = new Par2ResultBuilder();
        var position = 0L;
        while (true)
        {
            var window = data[(int)position..];
            var step = Par2PacketScanner.Step(window, window.Length, builder);
            if (step.Kind == Par2StepKind.End)
            {
                return Finish(builder);
            }

            // With the remaining length known the scanner never asks for more and never skips past the end.
            position += step.Count;
        }
    }

    /// <summary>
    /// Reads the packets of <paramref name="stream"/> from its current position to its end. A seekable
    /// stream has recovery slices seeked over; a forward-only one has them read and discarded.
    /// </summary>
    /// <exception cref="ArchiveFormatException">The stream holds no PAR2 packet at all.</exception>
    public static async Task<Par2ReadResult> ReadAsync(Stream stream, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(stream);
        var builder = new Par2ResultBuilder();
        var buffer = ArrayPool<byte>.Shared.Rent(InitialBufferSize);
        try
        {
            int start = 0, count = 0;
            var endOfStream = false;
            while (true)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var remaining = endOfStream ? count : stream.CanSeek ? count + stream.Length - stream.Position : -1;
                var step = Par2PacketScanner.Step(buffer.AsSpan(start, count), remaining, builder);
                switch (step.Kind)
                {
                    case Par2StepKind.End:
                        return Finish(builder);
                    case Par2StepKind.Consume:
                        start += (int)step.Count;
                        count -= (int)step.Count;
                        break;
                    case Par2StepKind.NeedMore:
                        buffer = Compact(buffer, start, count, (int)step.Count);
                        start = 0;
                        var before = count;
                        count = await FillAsync(stream, buffer, count, cancellationToken).ConfigureAwait(false);
                        endOfStream = count == before;
                        break;
                    case Par2StepKind.Skip when step.Count <= count:
                        start += (int)step.Count;
                        count -= (int)step.Count;
                        break;
                    case Par2StepKind.Skip:
                        var beyond = step.Count - count;
                        start = count = 0;
                        if (!await SkipAsync(stream, beyond, buffer, cancellationToken).ConfigureAwait(false))
                        {
                            builder.Truncated = true;
                            endOfStream = true;
                        }

                        break;
                }
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private static Par2ReadResult Finish(Par2ResultBuilder builder)
    {
        if (builder.ValidPackets == 0 && builder.SkippedPackets == 0)
        {
            throw new ArchiveFormatException(builder.CorruptPackets > 0 || builder.Truncated
                ? "PAR2 data holds no intact packet (" + builder.CorruptPackets + " corrupt)."
                : "Not PAR2 data: no packet magic found.");
        }

        return builder.Build();
    }

    /// <summary>Moves the window to the front, growing the pooled buffer when a packet needs more room.</summary>
    private static byte[] Compact(byte[] buffer, int start, int count, int needed)
    {
        if (needed > buffer.Length)
        {
            var larger = ArrayPool<byte>.Shared.Rent(needed);
            Buffer.BlockCopy(buffer, start, larger, 0, count);
            ArrayPool<byte>.Shared.Return(buffer);
            return larger;
        }

        Buffer.BlockCopy(buffer, start, buffer, 0, count);
        return buffer;
    }

    private static async Task<int> FillAsync(Stream stream, byte[] buffer, int count, CancellationToken cancellationToken)
    {
        var read = await stream.ReadAsync(buffer.AsMemory(count), cancellationToken).ConfigureAwait(false);
        return count + read;
    }

    /// <returns>False when the stream ended before <paramref name="bytes"/> were passed over.</returns>
    private static async Task<bool> SkipAsync(Stream stream, long bytes, byte[] scratch, CancellationToken cancellationToken)
    {
        if (stream.CanSeek)
        {
            var target = stream.Position + bytes;
            if (target > stream.Length)
            {
                stream.Seek(0, SeekOrigin.End);
                return false;
            }

            stream.Seek(bytes, SeekOrigin.Current);
            return true;
        }

        while (bytes > 0)
        {
            var chunk = (int)Math.Min(Math.Min(bytes, DiscardChunk), scratch.Length);
            var read = await stream.ReadAsync(scratch.AsMemory(0, chunk), cancellationToken).ConfigureAwait(false);
            if (read == 0)
            {
                return false;
            }

            bytes -= read;
        }

        return true;
    }
}

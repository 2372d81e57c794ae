using System.Buffers.Binary;
using System.IO.Hashing;
using System.Security.Cryptography;
using NzbDav.Archives.Release;

namespace NzbDav.Archives.Par2;

/// <summary>A PAR2 file of the release: its name and how to read it from the start.</summary>
public sealed record Par2Volume(string Name, Func<CancellationToken, Task<Stream>> Open);

/// <summary>What a repair is asked: the set, the slices known lost, and how to read the files and volumes.</summary>
/// <param name="Missing">Input slices known to be lost (those a hole touches); never read.</param>
/// <param name="OpenFile">Reads a protected file from its start (holes may read as anything).</param>
/// <param name="Volumes">The PAR2 files to take recovery slices from, read in this order until enough were found.</param>
/// <param name="Margin">Recovery slices read beyond the missing ones, spares for a singular choice.</param>
/// <param name="Progress">Told the bytes of each slice or volume packet read, as they are read (the repair's progress).</param>
/// <param name="MemoryBudget">Bytes the rebuild's accumulators may take; past it the slices go to <paramref name="ScratchDirectory"/> and the rebuild runs in stripes.</param>
/// <param name="ScratchDirectory">Where a rebuild over the budget stores the slices (about the set's size, deleted after).</param>
public sealed record Par2RepairRequest(
    Par2RecoverySet Set,
    IReadOnlyCollection<int> Missing,
    Func<Par2SetFile, CancellationToken, Task<Stream>> OpenFile,
    IReadOnlyList<Par2Volume> Volumes,
    int Margin = 1,
    Action<long>? Progress = null,
    long MemoryBudget = long.MaxValue,
    string? ScratchDirectory = null);

/// <summary>A rebuilt slice, checked against its MD5 and CRC-32: <see cref="Length"/> bytes of <see cref="File"/> from <see cref="Offset"/>.</summary>
public sealed record Par2RebuiltSlice(int Index, Par2SetFile File, long Offset, int Length, Par2RebuiltSlices Source, int Position)
{
    /// <summary>Copies the slice's bytes from <paramref name="within"/> into <paramref name="destination"/>.</summary>
    public void Read(long within, Span<byte> destination) => Source.Read(Position, within, destination);
}

/// <summary>How a repair ended; dispose it once its slices are used (a rebuild in stripes keeps them in a scratch file).</summary>
/// <param name="Damaged">Slices read as surviving that failed their checksums (add them to the missing ones and repair again).</param>
/// <param name="Spilled">True when the rebuild ran in stripes over a scratch file (the accumulators would have passed the memory budget).</param>
public sealed record Par2RepairOutcome(
    bool Succeeded,
    string? Failure,
    IReadOnlyList<Par2RebuiltSlice> Slices,
    long InputBytesRead,
    long RecoveryBytesRead,
    int RecoverySlicesUsed,
    IReadOnlyList<int> Damaged,
    bool Spilled = false) : IDisposable
{
    public void Dispose()
    {
        if (Slices.Count > 0)
        {
            Slices[0].Source.Dispose();
        }
    }
}

/// <summary>
/// One repair of a recovery set: reads recovery slices from the volumes until it has one per
/// missing slice and the margin, then every surviving input slice once (each checked against its
/// checksums as it passes), then solves, and hands back only slices whose MD5 and CRC-32 match.
/// </summary>
public static class Par2Repair
{
    public static async Task<Par2RepairOutcome> RunAsync(Par2RepairRequest request, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        var set = request.Set;
        var missing = request.Missing.Distinct().Order().ToArray();
        if (missing.Length == 0)
        {
            return new Par2RepairOutcome(true, null, [], 0, 0, 0, []);
        }

        var sliceSize = checked((int)set.SliceSize);
        var wanted = missing.Length + Math.Max(0, request.Margin);
        using var rebuilder = new Par2Rebuilder(set.SliceCount, sliceSize, missing, wanted, request.MemoryBudget, request.ScratchDirectory);
        long recoveryBytes = 0;
        long inputBytes = 0;
        var unreadable = new List<string>();
        foreach (var volume in request.Volumes)
        {
            if (rebuilder.RecoveryCount >= wanted)
            {
                break;
            }

            try
            {
                recoveryBytes += await ReadVolumeAsync(volume, set, sliceSize, rebuilder, wanted, request.Progress, cancellationToken).ConfigureAwait(false);
            }
            catch (Exception error) when (error is not OperationCanceledException)
            {
                // A volume that cannot be read (its first article gone, say) gives what it gave; the next ones may give the rest.
                unreadable.Add(volume.Name + ": " + error.Message);
            }
        }

        if (rebuilder.RecoveryCount < missing.Length)
        {
            return Failed("not enough recovery data: need " + missing.Length + ", have " + rebuilder.RecoveryCount
                + (unreadable.Count == 0 ? "" : " (unreadable: " + string.Join("; ", unreadable) + ")"));
        }

        var lost = missing.ToHashSet();
        var damaged = new List<int>();
        var slice = new byte[sliceSize];
        foreach (var file in set.Files)
        {
            if (Enumerable.Range(file.FirstSlice, file.SliceCount).All(lost.Contains))
            {
                continue;
            }

            var stream = await request.OpenFile(file, cancellationToken).ConfigureAwait(false);
            await using (stream.ConfigureAwait(false))
            {
                long position = 0;
                for (var i = 0; i < file.SliceCount; i++)
                {
                    var index = file.FirstSlice + i;
                    var offset = i * set.SliceSize;
                    var length = (int)Math.Min(set.SliceSize, file.Description.Length - offset);
                    if (lost.Contains(index))
                    {
                        continue;
                    }

                    if (position != offset)
                    {
                        position = await SkipAsync(stream, position, offset, slice, cancellationToken).ConfigureAwait(false);
                    }

                    await stream.ReadExactlyAsync(slice.AsMemory(0, length), cancellationToken).ConfigureAwait(false);
                    position += length;
                    inputBytes += length;
                    request.Progress?.Invoke(length);
                    if (!Matches(slice.AsSpan(0, length), sliceSize, file.Checksums[i]))
                    {
                        damaged.Add(index);
                        continue;
                    }

                    if (damaged.Count == 0)
                    {
                        rebuilder.AddInput(index, slice.AsSpan(0, length));
                    }
                }
            }
        }

        if (damaged.Count > 0)
        {
            return new Par2RepairOutcome(false, damaged.Count + " slices beyond the known holes do not match their checksums (first: " + damaged[0] + ")",
                [], inputBytes, recoveryBytes, 0, damaged);
        }

        if (!rebuilder.TryRebuild(out var rebuilt, out var failure))
        {
            return Failed(failure!);
        }

        var slices = new List<Par2RebuiltSlice>(missing.Length);
        // The input slices' buffer, free now: a repair holds one slice beside the rebuild's memory.
        var bytes = slice;
        for (var m = 0; m < missing.Length; m++)
        {
            var (file, offset, length) = set.Locate(missing[m]);
            rebuilt!.Read(m, 0, bytes);
            if (!Matches(bytes.AsSpan(0, length), sliceSize, file.Checksums[missing[m] - file.FirstSlice]) || bytes.AsSpan(length).ContainsAnyExcept((byte)0))
            {
                rebuilt.Dispose();
                return Failed("rebuilt slice " + missing[m] + " (" + file.Description.Name + " at " + offset + ") does not match its checksums; nothing was kept");
            }

            slices.Add(new Par2RebuiltSlice(missing[m], file, offset, length, rebuilt, m));
        }

        return new Par2RepairOutcome(true, null, slices, inputBytes, recoveryBytes, missing.Length, [], rebuilder.Spilled);

        Par2RepairOutcome Failed(string why) => new(false, why, [], inputBytes, recoveryBytes, 0, []);
    }

    // The recovery slices of one volume, until the rebuilder has as many as wanted; answers the bytes read.
    private static async Task<long> ReadVolumeAsync(Par2Volume volume, Par2RecoverySet set, int sliceSize, Par2Rebuilder rebuilder, int wanted, Action<long>? progress, CancellationToken cancellationToken)
    {
        var stream = await volume.Open(cancellationToken).ConfigureAwait(false);
        await using (stream.ConfigureAwait(false))
        {
            var counted = new CountingStream(stream);
            var reader = new Par2PacketReader();
            await foreach (var packet in reader.ReadAsync(counted, cancellationToken).ConfigureAwait(false))
            {
                if (packet.Kind != Par2PacketKind.RecoverySlice || packet.SetId != set.Id || packet.Body.Length != 4 + sliceSize)
                {
                    continue;
                }

                var exponent = BinaryPrimitives.ReadUInt32LittleEndian(packet.Body.Span);
                if (exponent >= Galois16.Order)
                {
                    continue; // no recovery slice of PAR 2.0 has it: a hostile or broken packet
                }

                rebuilder.AddRecovery(exponent, packet.Body.Span[4..]);
                progress?.Invoke(packet.Body.Length);
                if (rebuilder.RecoveryCount >= wanted)
                {
                    break;
                }
            }

            return counted.BytesRead;
        }
    }

    /// <summary>True when <paramref name="data"/>, zero-padded to <paramref name="sliceSize"/>, has <paramref name="expected"/>'s MD5 and CRC-32.</summary>
    public static bool Matches(ReadOnlySpan<byte> data, int sliceSize, Par2SliceChecksum expected)
    {
        var crc = new Crc32();
        crc.Append(data);
        using var md5 = IncrementalHash.CreateHash(HashAlgorithmName.MD5);
        md5.AppendData(data);
        Span<byte> zeros = stackalloc byte[1024];
        zeros.Clear();
        for (var pad = sliceSize - data.Length; pad > 0; pad -= Math.Min(pad, zeros.Length))
        {
            var part = zeros[..Math.Min(pad, zeros.Length)];
            crc.Append(part);
            md5.AppendData(part);
        }

        if (crc.GetCurrentHashAsUInt32() != expected.Crc32)
        {
            return false;
        }

        Span<byte> hash = stackalloc byte[16];
        md5.GetHashAndReset(hash);
        return Hash16.FromBytes(hash) == expected.Md5;
    }

    private static async Task<long> SkipAsync(Stream stream, long position, long offset, byte[] scratch, CancellationToken cancellationToken)
    {
        if (stream.CanSeek)
        {
            stream.Seek(offset, SeekOrigin.Begin);
            return offset;
        }

        while (position < offset)
        {
            var read = await stream.ReadAsync(scratch.AsMemory(0, (int)Math.Min(scratch.Length, offset - position)), cancellationToken).ConfigureAwait(false);
            if (read == 0)
            {
                throw new EndOfStreamException("The file ended at byte " + position + ", before the slice at " + offset + ".");
            }

            position += read;
        }

        return position;
    }

    // Counts what a volume's reading took from its stream (the repair's recovery bytes).
    private sealed class CountingStream(Stream inner) : Stream
    {
        public long BytesRead { get; private set; }

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => BytesRead; set => throw new NotSupportedException(); }

        public override int Read(byte[] buffer, int offset, int count)
        {
            var read = inner.Read(buffer, offset, count);
            BytesRead += read;
            return read;
        }

        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            var read = await inner.ReadAsync(buffer, cancellationToken).ConfigureAwait(false);
            BytesRead += read;
            return read;
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}

using System.Buffers.Binary;
using System.IO.Hashing;
using NzbDav.Archives.Crypto;
using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Rar;

/// <summary>
/// Reads RAR 2.9–4.x headers (single archives, <c>.rar/.r00/.r01</c> and <c>.partNN.rar</c>
/// sets, given in volume order) and maps every stored file onto the volume bytes that hold it.
/// Header CRC16s (low half of CRC32) are verified; file data is never read.
/// </summary>
public sealed class Rar4Reader : IArchiveReader
{
    private const int MarkerLength = 7;
    private const int BaseHeaderLength = 7;
    private const byte MainHead = 0x73;
    private const byte FileHead = 0x74;
    private const byte ServiceHead = 0x7A;
    private const byte EndHead = 0x7B;
    private const ushort LongBlock = 0x8000;
    private const ushort MainEncryptedHeaders = 0x0080;
    private const ushort EndMoreVolumes = 0x0001;
    private const ushort SplitAfter = 0x0002;

    // The end block is 7 bytes, up to 20 with its optional data CRC, volume number and reserved
    // space; any file or service block is at least 32 bytes.
    private const int MaxBareEndBlockLength = 20;

    /// <inheritdoc />
    public async Task<ArchiveListing> ReadAsync(IReadOnlyList<Stream> volumes, string? password, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(volumes);
        if (volumes.Count == 0)
        {
            throw new ArgumentException("at least one volume is required", nameof(volumes));
        }

        var entries = new SplitEntryAccumulator("RAR4");
        var keys = new Rar3KeyCache(password);
        for (var index = 0; index < volumes.Count; index++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var moreVolumes = await ReadVolumeAsync(volumes[index], index, entries, keys, cancellationToken).ConfigureAwait(false);
            var isLast = index == volumes.Count - 1;
            if (moreVolumes == true && isLast)
            {
                throw new ArchiveFormatException($"RAR4 volume {index + 1} says more volumes follow, but it is the last one given: volumes are missing");
            }

            if (moreVolumes == false && !isLast)
            {
                throw new ArchiveFormatException($"RAR4 volume {index + 1} says it is the last volume, but {volumes.Count - index - 1} more were given");
            }
        }

        return new ArchiveListing { Format = ArchiveFormat.Rar4, VolumeCount = volumes.Count, Entries = entries.Complete() };
    }

    /// <summary>Reads one volume; the end block's "more volumes" flag, or null when the volume has no end block (old archivers could omit it).</summary>
    private static async Task<bool?> ReadVolumeAsync(Stream stream, int index, SplitEntryAccumulator entries, Rar3KeyCache keys, CancellationToken cancellationToken)
    {
        var volumeName = "RAR4 volume " + (index + 1);
        using var window = new HeaderWindow(stream, volumeName);
        var marker = await window.ReadAsync(0, MarkerLength, "marker block", cancellationToken).ConfigureAwait(false);
        if (ArchiveDetector.Detect(marker.Span) != ArchiveFormat.Rar4)
        {
            throw new ArchiveFormatException(volumeName + " does not start with the RAR4 marker block");
        }

        long position = MarkerLength;
        var sawMain = false;
        while (position < window.Length)
        {
            var what = $"{volumeName} block at offset {position}";
            var head = await window.ReadAsync(position, BaseHeaderLength, what, cancellationToken).ConfigureAwait(false);
            var type = head.Span[2];
            var flags = BinaryPrimitives.ReadUInt16LittleEndian(head.Span[3..]);
            var headerSize = BinaryPrimitives.ReadUInt16LittleEndian(head.Span[5..]);
            var minimum = (flags & LongBlock) != 0 ? BaseHeaderLength + 4 : BaseHeaderLength;
            if (headerSize < minimum)
            {
                throw new ArchiveFormatException($"{what}: header size {headerSize} is smaller than the {minimum}-byte block header");
            }

            var header = (await window.ReadAsync(position, headerSize, what, cancellationToken).ConfigureAwait(false)).Span;
            VerifyCrc(header, type, what);
            var dataStart = position + headerSize;
            long dataSize = (flags & LongBlock) != 0 ? BinaryPrimitives.ReadUInt32LittleEndian(header[7..]) : 0;
            switch (type)
            {
                case MainHead:
                    sawMain = true;
                    if ((flags & MainEncryptedHeaders) != 0)
                    {
                        throw new UnsupportedArchiveException($"{volumeName} has encrypted headers (made with -hp); such RAR4 archives cannot be listed without decrypting every header, which is not supported");
                    }

                    break;
                case FileHead:
                    RequireMain(sawMain, what);
                    var piece = Rar4FileHeaderParser.Parse(header, what, index, dataStart, keys);
                    dataSize = piece.Range.Length;
                    CheckDataFits(window, dataStart, dataSize, what, volumeName);
                    entries.Add(piece);
                    // A file continued in the next volume is the last thing in this one; when only
                    // room for the end block is left, reading it would cost a round trip per volume
                    // over Usenet and tell nothing the split flag has not said.
                    var left = window.Length - (dataStart + dataSize);
                    if ((flags & SplitAfter) != 0 && left is > 0 and <= MaxBareEndBlockLength)
                    {
                        return true;
                    }

                    break;
                case EndHead:
                    return (flags & EndMoreVolumes) != 0;
                case ServiceHead:
                    dataSize = ServiceDataSize(header, flags, what);
                    break;
            }

            CheckDataFits(window, dataStart, dataSize, what, volumeName);
            position = dataStart + dataSize;
        }

        RequireMain(sawMain, volumeName);
        return null;
    }

    private static void RequireMain(bool sawMain, string what)
    {
        if (!sawMain)
        {
            throw new ArchiveFormatException($"{what}: no archive header (MAIN_HEAD) before the files; the volume is truncated or not a RAR archive");
        }
    }

    private static long ServiceDataSize(ReadOnlySpan<byte> header, ushort flags, string what)
    {
        var reader = new HeaderSpanReader(header, what);
        reader.Skip(7);
        long size = reader.ReadUInt32();
        if ((flags & 0x0100) != 0)
        {
            reader.Skip(4 + 1 + 4 + 4 + 1 + 1 + 2 + 4);
            size |= (long)reader.ReadUInt32() << 32;
        }

        return size >= 0 ? size : throw reader.Error("service block size is out of range");
    }

    private static void CheckDataFits(HeaderWindow window, long dataStart, long dataSize, string what, string volumeName)
    {
        if (dataSize > window.Length - dataStart)
        {
            throw new ArchiveFormatException($"{volumeName} is truncated: {what} has {dataSize} data bytes at offset {dataStart} but the volume is {window.Length} bytes long");
        }
    }

    private static void VerifyCrc(ReadOnlySpan<byte> header, byte type, string what)
    {
        // Only these blocks are CRC'd over the whole header; the obsolete 1.5-era blocks used other rules.
        if (type is not (MainHead or FileHead or ServiceHead or EndHead))
        {
            return;
        }

        var stored = BinaryPrimitives.ReadUInt16LittleEndian(header);
        var actual = (ushort)Crc32.HashToUInt32(header[2..]);
        if (stored != actual)
        {
            throw new ArchiveFormatException($"{what}: header CRC mismatch (stored {stored:X4}, computed {actual:X4}); the archive is corrupt");
        }
    }
}

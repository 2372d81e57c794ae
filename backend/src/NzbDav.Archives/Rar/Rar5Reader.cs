using System.IO.Hashing;
using NzbDav.Archives.Crypto;
using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Rar;

/// <summary>
/// Reads RAR 5.0 headers (single archives and <c>.partNN.rar</c> sets, in volume order) and maps
/// every stored file onto the volume bytes that hold it. Headers are verified by CRC32; file data is
/// never read.
/// </summary>
public sealed class Rar5Reader : IArchiveReader
{
    private const int SignatureLength = 8;

    // CRC32 plus a header-size vint of at most 3 bytes (2 MB headers); pre-allocated vints may be padded.
    private const int HeaderPrefixLength = 4 + 10;
    private const int MaxHeaderSize = 2 * 1024 * 1024;

    // The end-of-archive block is 8 bytes (CRC32, size, type, flags, end flags). A service block
    // (recovery record, quick-open data) or a file header cannot fit in twice that.
    private const int MaxBareEndBlockLength = 16;

    /// <inheritdoc />
    public async Task<ArchiveListing> ReadAsync(IReadOnlyList<Stream> volumes, string? password, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(volumes);
        if (volumes.Count == 0)
        {
            throw new ArgumentException("at least one volume is required", nameof(volumes));
        }

        var entries = new SplitEntryAccumulator("RAR5");
        var keys = new Rar5KeyCache(password);
        for (var index = 0; index < volumes.Count; index++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var moreVolumes = await ReadVolumeAsync(volumes[index], index, entries, keys, cancellationToken).ConfigureAwait(false);
            var isLast = index == volumes.Count - 1;
            if (moreVolumes && isLast)
            {
                throw new ArchiveFormatException($"RAR5 volume {index + 1} says more volumes follow, but it is the last one given: volumes are missing");
            }

            if (!moreVolumes && !isLast)
            {
                throw new ArchiveFormatException($"RAR5 volume {index + 1} says it is the last volume, but {volumes.Count - index - 1} more were given");
            }
        }

        return new ArchiveListing { Format = ArchiveFormat.Rar5, VolumeCount = volumes.Count, Entries = entries.Complete() };
    }

    /// <summary>Reads one volume's headers; true when its end header says another volume follows.</summary>
    private static async Task<bool> ReadVolumeAsync(Stream stream, int index, SplitEntryAccumulator entries, Rar5KeyCache keys, CancellationToken cancellationToken)
    {
        var volumeName = "RAR5 volume " + (index + 1);
        using var window = new HeaderWindow(stream, volumeName);
        var signature = await window.ReadAsync(0, SignatureLength, "signature", cancellationToken).ConfigureAwait(false);
        if (ArchiveDetector.Detect(signature.Span) != ArchiveFormat.Rar5)
        {
            throw new ArchiveFormatException(volumeName + " does not start with the RAR5 signature");
        }

        var headers = new Rar5HeaderSource(window, volumeName);
        long position = SignatureLength;
        while (position < window.Length)
        {
            var what = $"{volumeName} header at offset {position}";
            var (body, dataStart) = await headers.ReadAsync(position, what, cancellationToken).ConfigureAwait(false);
            var block = Rar5BlockHeader.Parse(body.Span, what);
            if (block.DataSize > window.Length - dataStart)
            {
                throw new ArchiveFormatException($"{volumeName} is truncated: {what} has {block.DataSize} data bytes at offset {dataStart} but the volume is {window.Length} bytes long");
            }

            switch (block.Type)
            {
                case Rar5BlockHeader.TypeMain:
                    CheckVolumeNumber(body.Span, block, what, index);
                    break;
                case Rar5BlockHeader.TypeFile:
                    var range = new ArchiveByteRange(index, dataStart, block.DataSize);
                    entries.Add(Rar5FileHeaderParser.Parse(body.Span, block, what, range, keys));
                    // A file continued in the next volume is the last thing in this one; when only
                    // room for the end block is left, reading it would cost a round trip per volume
                    // over Usenet and tell nothing the split flag has not said.
                    var left = window.Length - (dataStart + block.DataSize);
                    if (block.SplitAfter && left is > 0 and <= MaxBareEndBlockLength)
                    {
                        return true;
                    }

                    break;
                case Rar5BlockHeader.TypeEncryption:
                    headers.EnableDecryption(keys.ResolveHeaderKey(ParseArchiveEncryption(body.Span, block, what)));
                    break;
                case Rar5BlockHeader.TypeEnd:
                    return ReadEndFlags(body.Span, block, what);
            }

            position = dataStart + block.DataSize;
        }

        throw new ArchiveFormatException($"{volumeName} is truncated: it ends at offset {position} without an end-of-archive header");
    }

    /// <summary>
    /// The main header's volume number (absent in the first volume, 1 in the second…) must match the
    /// volume's place in the set; with end blocks of split volumes skipped this is what catches a
    /// missing or misordered volume early.
    /// </summary>
    private static void CheckVolumeNumber(ReadOnlySpan<byte> body, Rar5BlockHeader block, string what, int index)
    {
        const ulong volumeNumberFlag = 0x0002;
        var reader = new HeaderSpanReader(body[..^block.ExtraSize], what);
        reader.Skip(block.FieldsStart);
        var flags = reader.ReadVInt();
        if ((flags & volumeNumberFlag) == 0)
        {
            return;
        }

        var number = reader.ReadVInt();
        if (number != (ulong)index)
        {
            throw new ArchiveFormatException($"RAR5 volume {index + 1} of the set given is volume {number + 1} of its archive: volumes are missing or out of order");
        }
    }

    private static bool ReadEndFlags(ReadOnlySpan<byte> body, Rar5BlockHeader block, string what)
    {
        const ulong moreVolumesFlag = 0x0001;
        var reader = new HeaderSpanReader(body, what);
        reader.Skip(block.FieldsStart);
        return (reader.ReadVInt() & moreVolumesFlag) != 0;
    }

    private static Rar5EncryptionRecord ParseArchiveEncryption(ReadOnlySpan<byte> body, Rar5BlockHeader block, string what)
    {
        var reader = new HeaderSpanReader(body, what);
        reader.Skip(block.FieldsStart);
        return Rar5EncryptionRecord.Parse(ref reader, hasIv: false);
    }

    /// <summary>Reads one header (plain, or AES-256-CBC with a leading IV once the archive encryption header was seen) and checks its CRC32.</summary>
    private sealed class Rar5HeaderSource(HeaderWindow window, string volumeName)
    {
        private Rar5HeaderDecryptor? _decryptor;

        public void EnableDecryption(byte[] key) => _decryptor = new Rar5HeaderDecryptor(key);

        public async ValueTask<(ReadOnlyMemory<byte> Body, long DataStart)> ReadAsync(long position, string what, CancellationToken cancellationToken)
        {
            if (_decryptor is { } decryptor)
            {
                return await decryptor.ReadAsync(window, position, what, cancellationToken).ConfigureAwait(false);
            }

            var prefix = await window.ReadAvailableAsync(position, HeaderPrefixLength, cancellationToken).ConfigureAwait(false);
            var (headerSize, prefixLength) = ParsePrefix(prefix.Span, what, volumeName);
            var total = prefixLength + headerSize;
            var header = await window.ReadAsync(position, total, what, cancellationToken).ConfigureAwait(false);
            VerifyCrc(header.Span, what);
            return (header[prefixLength..], position + total);
        }
    }

    /// <summary>Header size and the length of CRC plus size field.</summary>
    internal static (int HeaderSize, int PrefixLength) ParsePrefix(ReadOnlySpan<byte> prefix, string what, string volumeName)
    {
        if (prefix.Length < 5)
        {
            throw new ArchiveFormatException($"{volumeName} is truncated: {what} is cut short");
        }

        var reader = new HeaderSpanReader(prefix, what);
        reader.ReadUInt32();
        var headerSize = reader.ReadVInt();
        if (headerSize == 0 || headerSize > MaxHeaderSize)
        {
            throw reader.Error($"header size {headerSize} is outside 1..{MaxHeaderSize}");
        }

        return ((int)headerSize, reader.Position);
    }

    internal static void VerifyCrc(ReadOnlySpan<byte> header, string what)
    {
        var stored = BitConverter.ToUInt32(header[..4]);
        var actual = Crc32.HashToUInt32(header[4..]);
        if (stored != actual)
        {
            throw new ArchiveFormatException($"{what}: header CRC32 mismatch (stored {stored:X8}, computed {actual:X8}); the archive is corrupt");
        }
    }
}

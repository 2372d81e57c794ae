using System.Buffers;
using System.Text;

namespace NzbDav.Data.Layout;

/// <summary>
/// Binary form of <see cref="DavFileLayout"/>: 'L', version 1, varint part count, then per part
/// varint file size, part size, range offset, range length, id count, and the ids coded against the
/// previous id (varint shared prefix bytes, varint shared suffix bytes, varint middle length, middle
/// UTF-8). Posters number their ids sequentially under one random token and domain, so a
/// 100k-segment file costs a few bytes per segment instead of 100k rows. Version 2 (written only for
/// encrypted files, so plain layouts keep the version-1 bytes) appends the AES key (varint length,
/// bytes), the 16-byte IV and the varint plaintext length. Version 3 (only for encrypted files whose
/// plaintext starts inside the decrypted data, so version-2 blobs stay as they were) appends the
/// varint plaintext offset after that.
/// </summary>
public static class DavFileLayoutCodec
{
    private const byte Magic = (byte)'L';
    private const byte Version = 1;
    private const byte EncryptedVersion = 2;
    private const byte OffsetEncryptedVersion = 3;
    private const int IvLength = 16;

    public static byte[] Encode(DavFileLayout layout)
    {
        ArgumentNullException.ThrowIfNull(layout);
        var buffer = new ArrayBufferWriter<byte>(256);
        buffer.Write([Magic, layout.Encryption switch
        {
            null => Version,
            { PlaintextOffset: 0 } => EncryptedVersion,
            _ => OffsetEncryptedVersion,
        }]);
        WriteVarint(buffer, (ulong)layout.Parts.Count);
        var previous = Array.Empty<byte>();
        foreach (var part in layout.Parts)
        {
            if (part.FileSize < 0 || part.PartSize < 0 || part.RangeOffset < 0 || part.RangeLength < 0 || part.RangeOffset + part.RangeLength > part.FileSize)
                throw new ArgumentException("A layout part's range must lie inside its file.", nameof(layout));
            WriteVarint(buffer, (ulong)part.FileSize);
            WriteVarint(buffer, (ulong)part.PartSize);
            WriteVarint(buffer, (ulong)part.RangeOffset);
            WriteVarint(buffer, (ulong)part.RangeLength);
            WriteVarint(buffer, (ulong)part.MessageIds.Count);
            foreach (var id in part.MessageIds)
            {
                var bytes = Encoding.UTF8.GetBytes(id);
                var prefix = bytes.AsSpan().CommonPrefixLength(previous);
                var suffix = CommonSuffixLength(bytes.AsSpan(prefix), previous.AsSpan(prefix));
                WriteVarint(buffer, (ulong)prefix);
                WriteVarint(buffer, (ulong)suffix);
                WriteVarint(buffer, (ulong)(bytes.Length - prefix - suffix));
                buffer.Write(bytes.AsSpan(prefix, bytes.Length - prefix - suffix));
                previous = bytes;
            }
        }

        if (layout.Encryption is { } encryption)
        {
            if (encryption.Key.Length is not (16 or 32) || encryption.Iv.Length != IvLength || encryption.PlaintextLength < 0 || encryption.PlaintextOffset < 0
                || encryption.PlaintextLength > layout.StoredLength - encryption.PlaintextOffset || layout.StoredLength % IvLength != 0)
            {
                throw new ArgumentException("An encrypted layout needs a 16/32-byte key, a 16-byte IV and whole AES blocks covering the plaintext.", nameof(layout));
            }
            WriteVarint(buffer, (ulong)encryption.Key.Length);
            buffer.Write(encryption.Key);
            buffer.Write(encryption.Iv);
            WriteVarint(buffer, (ulong)encryption.PlaintextLength);
            if (encryption.PlaintextOffset != 0)
                WriteVarint(buffer, (ulong)encryption.PlaintextOffset);
        }

        return buffer.WrittenSpan.ToArray();
    }

    /// <exception cref="LayoutFormatException">The blob is not a valid layout.</exception>
    public static DavFileLayout Decode(ReadOnlySpan<byte> data)
    {
        if (data.Length < 2 || data[0] != Magic)
            throw new LayoutFormatException("Not a file layout blob.");
        if (data[1] is not (Version or EncryptedVersion or OffsetEncryptedVersion))
            throw new LayoutFormatException($"Unknown file layout version {data[1]}.");
        var position = 2;
        var partCount = ReadCount(data, ref position);
        var parts = new List<LayoutPart>(partCount);
        var previous = new byte[256];
        var current = new byte[256];
        var previousLength = 0;
        for (var p = 0; p < partCount; p++)
        {
            var fileSize = (long)ReadVarint(data, ref position);
            var partSize = (long)ReadVarint(data, ref position);
            var offset = (long)ReadVarint(data, ref position);
            var length = (long)ReadVarint(data, ref position);
            if (fileSize < 0 || partSize < 0 || offset < 0 || length < 0 || offset > fileSize - length)
                throw new LayoutFormatException($"Layout part {p} has a range outside its file.");
            var idCount = ReadCount(data, ref position);
            var ids = new string[idCount];
            for (var i = 0; i < idCount; i++)
            {
                var prefixValue = ReadVarint(data, ref position);
                var suffixValue = ReadVarint(data, ref position);
                if (prefixValue + suffixValue > (ulong)previousLength)
                    throw new LayoutFormatException("A message-id in the layout shares more than its predecessor has.");
                var prefix = (int)prefixValue;
                var suffix = (int)suffixValue;
                var middle = ReadCount(data, ref position);
                if (middle > data.Length - position)
                    throw new LayoutFormatException("A message-id in the layout is truncated.");
                var total = prefix + middle + suffix;
                if (total > current.Length)
                    Array.Resize(ref current, Math.Max(total, current.Length * 2));
                previous.AsSpan(0, prefix).CopyTo(current);
                data.Slice(position, middle).CopyTo(current.AsSpan(prefix));
                previous.AsSpan(previousLength - suffix, suffix).CopyTo(current.AsSpan(prefix + middle));
                position += middle;
                ids[i] = Encoding.UTF8.GetString(current, 0, total);
                (previous, current) = (current, previous);
                previousLength = total;
            }

            parts.Add(new LayoutPart(ids, fileSize, partSize, offset, length));
        }

        var encryption = data[1] == Version ? null : ReadEncryption(data, ref position, parts, hasOffset: data[1] == OffsetEncryptedVersion);
        if (position != data.Length)
            throw new LayoutFormatException("The layout blob has trailing bytes.");
        return new DavFileLayout(parts, encryption);
    }

    private static LayoutEncryption ReadEncryption(ReadOnlySpan<byte> data, ref int position, List<LayoutPart> parts, bool hasOffset)
    {
        var keyLength = ReadCount(data, ref position);
        if (keyLength is not (16 or 32) || keyLength + IvLength > data.Length - position)
            throw new LayoutFormatException("The layout's AES key or IV is truncated or of a wrong size.");
        var key = data.Slice(position, keyLength).ToArray();
        position += keyLength;
        var iv = data.Slice(position, IvLength).ToArray();
        position += IvLength;
        var plaintext = (long)ReadVarint(data, ref position);
        var offset = hasOffset ? (long)ReadVarint(data, ref position) : 0;
        var stored = parts.Sum(p => p.RangeLength);
        if (plaintext > stored - offset || stored % IvLength != 0)
            throw new LayoutFormatException("The layout's ciphertext does not cover its plaintext in whole AES blocks.");
        return new LayoutEncryption(key, iv, plaintext, offset);
    }

    private static int CommonSuffixLength(ReadOnlySpan<byte> a, ReadOnlySpan<byte> b)
    {
        var n = 0;
        var max = Math.Min(a.Length, b.Length);
        while (n < max && a[a.Length - 1 - n] == b[b.Length - 1 - n])
            n++;
        return n;
    }

    private static void WriteVarint(ArrayBufferWriter<byte> buffer, ulong value)
    {
        var span = buffer.GetSpan(10);
        var n = 0;
        while (value >= 0x80)
        {
            span[n++] = (byte)(value | 0x80);
            value >>= 7;
        }

        span[n++] = (byte)value;
        buffer.Advance(n);
    }

    private static ulong ReadVarint(ReadOnlySpan<byte> data, ref int position)
    {
        ulong value = 0;
        for (var shift = 0; shift < 64; shift += 7)
        {
            if (position >= data.Length)
                throw new LayoutFormatException("The layout blob is truncated.");
            var b = data[position++];
            value |= (ulong)(b & 0x7F) << shift;
            if (b < 0x80)
                return value <= long.MaxValue ? value : throw new LayoutFormatException("A layout number is out of range.");
        }

        throw new LayoutFormatException("A layout number is too long.");
    }

    private static int ReadCount(ReadOnlySpan<byte> data, ref int position)
    {
        var value = ReadVarint(data, ref position);
        // Every counted item takes at least one byte, so a count beyond the remaining bytes is corrupt.
        return value <= (ulong)(data.Length - position) || value == 0 ? (int)value : throw new LayoutFormatException("A layout count exceeds the blob.");
    }
}

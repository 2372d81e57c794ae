using System.Buffers.Binary;

namespace NzbDav.Archives.Entries;

/// <summary>
/// Bounds-checked little-endian field reader over one header; every overrun becomes an
/// <see cref="ArchiveFormatException"/> naming the header, never an IndexOutOfRangeException.
/// </summary>
internal ref struct HeaderSpanReader
{
    private readonly ReadOnlySpan<byte> _data;
    private readonly string _what;
    private int _position;

    public HeaderSpanReader(ReadOnlySpan<byte> data, string what)
    {
        _data = data;
        _what = what;
    }

    public readonly int Position => _position;

    public readonly int Remaining => _data.Length - _position;

    public byte ReadByte() => Take(1)[0];

    public ushort ReadUInt16() => BinaryPrimitives.ReadUInt16LittleEndian(Take(2));

    public uint ReadUInt32() => BinaryPrimitives.ReadUInt32LittleEndian(Take(4));

    public ulong ReadUInt64() => BinaryPrimitives.ReadUInt64LittleEndian(Take(8));

    public ReadOnlySpan<byte> ReadBytes(int count) => Take(count);

    public void Skip(int count) => Take(count);

    /// <summary>RAR5 variable-length integer: 7 bits per byte, low bits first, high bit = more.</summary>
    public ulong ReadVInt()
    {
        ulong value = 0;
        for (var shift = 0; shift < 64; shift += 7)
        {
            var b = ReadByte();
            value |= (ulong)(b & 0x7F) << shift;
            if ((b & 0x80) == 0)
            {
                return value;
            }
        }

        throw Error("a variable-length integer is longer than 10 bytes");
    }

    /// <summary>
    /// 7z NUMBER: the count of leading one bits in the first byte says how many little-endian
    /// bytes follow; the first byte's remaining bits are the value's most significant part.
    /// </summary>
    public ulong ReadNumber()
    {
        var first = ReadByte();
        ulong value = 0;
        var mask = 0x80;
        for (var i = 0; i < 8; i++)
        {
            if ((first & mask) == 0)
            {
                var high = (ulong)(first & (mask - 1));
                return value | (high << (8 * i));
            }

            value |= (ulong)ReadByte() << (8 * i);
            mask >>= 1;
        }

        return value;
    }

    /// <summary>A 7z NUMBER that must fit a non-negative <see cref="long"/>.</summary>
    public long ReadNumberAsInt64(string field)
    {
        var value = ReadNumber();
        return value <= long.MaxValue ? (long)value : throw Error($"{field} {value} is out of range");
    }

    /// <summary>A 7z NUMBER used as a count; bounded so that a corrupt header cannot make us allocate gigabytes.</summary>
    public int ReadCount(string field, int max)
    {
        var value = ReadNumber();
        return value <= (ulong)max ? (int)value : throw Error($"{field} {value} exceeds the limit of {max}");
    }

    /// <summary>A vint that must fit a non-negative <see cref="long"/>.</summary>
    public long ReadVIntAsInt64(string field)
    {
        var value = ReadVInt();
        return value <= long.MaxValue ? (long)value : throw Error($"{field} {value} is out of range");
    }

    /// <summary>A vint that must fit a non-negative <see cref="int"/>.</summary>
    public int ReadVIntAsInt32(string field)
    {
        var value = ReadVInt();
        return value <= int.MaxValue ? (int)value : throw Error($"{field} {value} is out of range");
    }

    public readonly ArchiveFormatException Error(string problem) => new($"{_what}: {problem}");

    private ReadOnlySpan<byte> Take(int count)
    {
        if (count < 0 || count > _data.Length - _position)
        {
            throw Error($"field of {count} bytes at header offset {_position} runs past the header's {_data.Length} bytes");
        }

        var span = _data.Slice(_position, count);
        _position += count;
        return span;
    }
}

using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Security.Cryptography;

namespace NzbDav.Archives.Release;

/// <summary>
/// A 16-byte identifier or digest as PAR2 stores them (MD5 hashes, file ids, recovery set ids).
/// Value equality; <see cref="ToString"/> is the lowercase hex of the bytes in stored order.
/// </summary>
public readonly record struct Hash16(UInt128 Value)
{
    /// <summary>Number of bytes in the hash.</summary>
    public const int Size = 16;

    /// <summary>Reads 16 bytes in stored order.</summary>
    /// <exception cref="ArgumentException">Fewer than 16 bytes were given.</exception>
    public static Hash16 FromBytes(ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length < Size)
        {
            throw new ArgumentException("A 16-byte hash needs 16 bytes, got " + bytes.Length + ".", nameof(bytes));
        }

        return new Hash16(BinaryPrimitives.ReadUInt128BigEndian(bytes));
    }

    /// <summary>Parses 32 hex digits (either case).</summary>
    /// <exception cref="FormatException">The text is not 32 hex digits.</exception>
    public static Hash16 Parse(string hex)
    {
        ArgumentNullException.ThrowIfNull(hex);
        if (hex.Length != Size * 2)
        {
            throw new FormatException("A 16-byte hash is 32 hex digits, got '" + hex + "'.");
        }

        return FromBytes(Convert.FromHexString(hex));
    }

    /// <summary>MD5 of <paramref name="data"/>.</summary>
    [SuppressMessage("Security", "CA5351:Do Not Use Broken Cryptographic Algorithms",
        Justification = "PAR2 identifies files by MD5 (its specification); this is matching, not security.")]
    public static Hash16 Md5Of(ReadOnlySpan<byte> data)
    {
        Span<byte> digest = stackalloc byte[Size];
        MD5.HashData(data, digest);
        return FromBytes(digest);
    }

    /// <summary>Writes the 16 bytes in stored order.</summary>
    public void WriteTo(Span<byte> destination) => BinaryPrimitives.WriteUInt128BigEndian(destination, Value);

    /// <inheritdoc />
    public override string ToString()
    {
        Span<byte> bytes = stackalloc byte[Size];
        WriteTo(bytes);
        return Convert.ToHexStringLower(bytes);
    }
}

using System.IO.Hashing;
using System.Security.Cryptography;
using System.Text;
using NzbDav.Archives.Crypto;

namespace NzbDav.Archives.Tests.Rar;

/// <summary>
/// Test-only RAR5 writer built from the format description (no rar tool exists here): stored
/// files, optional AES-256 file encryption with a password check value, optional encrypted
/// headers, and volume splitting by data bytes per volume.
/// </summary>
internal sealed class Rar5TestWriter
{
    public string? Password { get; init; }

    public bool EncryptHeaders { get; init; }

    public int KdfLog2 { get; init; } = 5;

    public int DataBytesPerVolume { get; init; } = int.MaxValue;

    public ulong Method { get; init; }

    public byte[][] Write(params TestFile[] files)
    {
        var salt = RandomNumberGenerator.GetBytes(16);
        var (key, check) = Password is null ? ([], []) : Rar5KeyDerivation.Derive(Password, salt, KdfLog2);
        var pieces = Split(files, key);
        var volumes = new List<byte[]>();
        for (var v = 0; v < pieces.Count; v++)
        {
            var output = new MemoryStream();
            output.Write([0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x01, 0x00]);
            if (EncryptHeaders)
            {
                var record = new List<byte>();
                Vint(record, 0);
                Vint(record, 1);
                record.Add((byte)KdfLog2);
                record.AddRange(salt);
                record.AddRange(check);
                record.AddRange(SHA256.HashData(check).AsSpan(0, 4).ToArray());
                WritePlainHeader(output, Header(4, 0, [], record, 0));
            }

            var multi = pieces.Count > 1;
            var main = new List<byte>();
            Vint(main, (multi ? 1UL : 0) | (v > 0 ? 2UL : 0));
            if (v > 0)
            {
                Vint(main, (ulong)v);
            }

            WriteHeader(output, Header(1, 0, [], main, 0), key);
            foreach (var piece in pieces[v])
            {
                WriteHeader(output, FileHeader(piece, salt, check), key);
                output.Write(piece.Data);
            }

            var end = new List<byte>();
            Vint(end, v < pieces.Count - 1 ? 1UL : 0);
            WriteHeader(output, Header(5, 0, [], end, 0), key);
            volumes.Add(output.ToArray());
        }

        return [.. volumes];
    }

    private List<List<Piece>> Split(TestFile[] files, byte[] key)
    {
        var volumes = new List<List<Piece>> { new() };
        var budget = DataBytesPerVolume;
        foreach (var file in files)
        {
            var iv = RandomNumberGenerator.GetBytes(16);
            var stored = Password is null || file.IsDirectory ? file.Data : Encrypt(file.Data, key, iv);
            var offset = 0;
            do
            {
                if (budget == 0)
                {
                    volumes.Add([]);
                    budget = DataBytesPerVolume;
                }

                var take = Math.Min(budget, stored.Length - offset);
                var before = offset > 0;
                offset += take;
                budget -= take;
                volumes[^1].Add(new Piece(file, iv, stored[(offset - take)..offset], before, offset < stored.Length));
            }
            while (offset < stored.Length);
        }

        return volumes;
    }

    private List<byte> FileHeader(Piece piece, byte[] salt, byte[] check)
    {
        var fields = new List<byte>();
        Vint(fields, (piece.File.IsDirectory ? 1UL : 0) | 2UL);
        Vint(fields, (ulong)piece.File.Data.Length);
        Vint(fields, 0x20);
        fields.AddRange(BitConverter.GetBytes(1_700_000_000u));
        Vint(fields, Method << 7);
        Vint(fields, 0);
        var name = Encoding.UTF8.GetBytes(piece.File.Name);
        Vint(fields, (ulong)name.Length);
        fields.AddRange(name);
        var extra = new List<byte>();
        if (Password is not null && !piece.File.IsDirectory)
        {
            var record = new List<byte>();
            Vint(record, 1);
            Vint(record, 0);
            Vint(record, 1);
            record.Add((byte)KdfLog2);
            record.AddRange(salt);
            record.AddRange(piece.Iv);
            record.AddRange(check);
            record.AddRange(SHA256.HashData(check).AsSpan(0, 4).ToArray());
            Vint(extra, (ulong)record.Count);
            extra.AddRange(record);
        }

        var flags = (piece.SplitBefore ? 0x08UL : 0) | (piece.SplitAfter ? 0x10UL : 0);
        return Header(2, flags, extra, fields, piece.Data.Length);
    }

    private static List<byte> Header(ulong type, ulong flags, List<byte> extra, List<byte> fields, long dataSize)
    {
        var body = new List<byte>();
        Vint(body, type);
        Vint(body, flags | (extra.Count > 0 ? 1UL : 0) | (dataSize > 0 ? 2UL : 0));
        if (extra.Count > 0)
        {
            Vint(body, (ulong)extra.Count);
        }

        if (dataSize > 0)
        {
            Vint(body, (ulong)dataSize);
        }

        body.AddRange(fields);
        body.AddRange(extra);
        var sized = new List<byte>();
        Vint(sized, (ulong)body.Count);
        sized.AddRange(body);
        var header = new List<byte>(BitConverter.GetBytes(Crc32.HashToUInt32([.. sized])));
        header.AddRange(sized);
        return header;
    }

    private void WriteHeader(Stream output, List<byte> header, byte[] key)
    {
        if (!EncryptHeaders)
        {
            WritePlainHeader(output, header);
            return;
        }

        var iv = RandomNumberGenerator.GetBytes(16);
        output.Write(iv);
        output.Write(Encrypt([.. header], key, iv));
    }

    private static void WritePlainHeader(Stream output, List<byte> header) => output.Write([.. header]);

    private static byte[] Encrypt(byte[] plain, byte[] key, byte[] iv)
    {
        var padded = new byte[(plain.Length + 15) & ~15];
        plain.CopyTo(padded, 0);
        using var aes = Aes.Create();
        aes.Key = key;
        return aes.EncryptCbc(padded, iv, PaddingMode.None);
    }

    private static void Vint(List<byte> output, ulong value)
    {
        while (value >= 0x80)
        {
            output.Add((byte)(value | 0x80));
            value >>= 7;
        }

        output.Add((byte)value);
    }

    private sealed record Piece(TestFile File, byte[] Iv, byte[] Data, bool SplitBefore, bool SplitAfter);
}

/// <summary>A file or directory for <see cref="Rar5TestWriter"/>.</summary>
internal sealed record TestFile(string Name, byte[] Data, bool IsDirectory = false)
{
    public static TestFile Random(string name, int size, int seed)
    {
        var data = new byte[size];
        new Random(seed).NextBytes(data);
        return new TestFile(name, data);
    }
}

using System.Security.Cryptography;
using System.Text;

namespace NzbDav.Archives.Crypto;

/// <summary>
/// RAR 2.9–4.x key schedule (AES-128-CBC): 2^18 rounds of SHA-1 over (UTF-16LE password, 8-byte
/// salt, 3-byte little-endian round number) fed into one running hash. Every 2^14 rounds the last
/// byte of the running digest becomes the next IV byte; the key is the final digest's first four
/// 32-bit words, each stored little-endian.
/// </summary>
internal static class Rar3KeyDerivation
{
    private const int Rounds = 1 << 18;
    private const int IvStep = Rounds / 16;

    public static (byte[] Key, byte[] Iv) Derive(string password, ReadOnlySpan<byte> salt)
    {
        var passwordBytes = Encoding.Unicode.GetBytes(password);
        var seed = new byte[passwordBytes.Length + salt.Length + 3];
        passwordBytes.CopyTo(seed, 0);
        salt.CopyTo(seed.AsSpan(passwordBytes.Length));
        CryptographicOperations.ZeroMemory(passwordBytes);

        var iv = new byte[16];
        Span<byte> digest = stackalloc byte[20];
        using var sha1 = IncrementalHash.CreateHash(HashAlgorithmName.SHA1);
        for (var round = 0; round < Rounds; round++)
        {
            seed[^3] = (byte)round;
            seed[^2] = (byte)(round >> 8);
            seed[^1] = (byte)(round >> 16);
            sha1.AppendData(seed);
            if (round % IvStep == 0)
            {
                sha1.GetCurrentHash(digest);
                iv[round / IvStep] = digest[19];
            }
        }

        sha1.GetHashAndReset(digest);
        CryptographicOperations.ZeroMemory(seed);
        var key = new byte[16];
        for (var word = 0; word < 4; word++)
        {
            for (var b = 0; b < 4; b++)
            {
                key[(word * 4) + b] = digest[(word * 4) + 3 - b];
            }
        }

        return (key, iv);
    }
}

using System.Buffers.Binary;
using System.Security.Cryptography;
using System.Text;

namespace NzbDav.Archives.Crypto;

/// <summary>
/// 7-Zip's AES-256 key: one SHA-256 over 2^n rounds of (salt, UTF-16LE password, round number as
/// 8 bytes little-endian), all fed into one running hash. The exponent 0x3F instead takes salt and
/// password as they are, zero-padded or cut to 32 bytes.
/// </summary>
internal static class SevenZipKeyDerivation
{
    private const int KeySize = 32;

    // Rounds handed to the hash per call: one call per round would spend more on the call than on
    // hashing its ~30 bytes, and 7-Zip's default is 2^19 rounds.
    private const int RoundsPerBatch = 1024;

    public static byte[] Derive(string password, ReadOnlySpan<byte> salt, int cyclesPower)
    {
        var passwordBytes = Encoding.Unicode.GetBytes(password);
        try
        {
            var key = new byte[KeySize];
            if (cyclesPower == SevenZipAesProperties.RawKeyCyclesPower)
            {
                var raw = new byte[salt.Length + passwordBytes.Length];
                salt.CopyTo(raw);
                passwordBytes.CopyTo(raw, salt.Length);
                raw.AsSpan(0, Math.Min(raw.Length, KeySize)).CopyTo(key);
                CryptographicOperations.ZeroMemory(raw);
                return key;
            }

            var roundLength = salt.Length + passwordBytes.Length + 8;
            var rounds = 1L << cyclesPower;
            var batch = new byte[roundLength * (int)Math.Min(rounds, RoundsPerBatch)];
            for (var offset = 0; offset < batch.Length; offset += roundLength)
            {
                salt.CopyTo(batch.AsSpan(offset));
                passwordBytes.CopyTo(batch, offset + salt.Length);
            }

            using var sha256 = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
            for (long round = 0; round < rounds;)
            {
                var count = (int)Math.Min(rounds - round, RoundsPerBatch);
                for (var i = 0; i < count; i++)
                {
                    BinaryPrimitives.WriteInt64LittleEndian(batch.AsSpan((i * roundLength) + roundLength - 8), round + i);
                }

                sha256.AppendData(batch, 0, count * roundLength);
                round += count;
            }

            sha256.GetHashAndReset(key);
            CryptographicOperations.ZeroMemory(batch);
            return key;
        }
        finally
        {
            CryptographicOperations.ZeroMemory(passwordBytes);
        }
    }
}

using System.Text;

namespace NzbDav.Archives.Tests.Rar;

/// <summary>
/// A real RAR 2.9 AES-128 encrypted, stored (-m0) file: salt, CRC-32 and cipher text as published in
/// John the Ripper's RAR3 self-test vectors (src/rar_common.c, "-p mode tests, -m0"), password
/// "test". Its plaintext was recovered once by decrypting it; its CRC-32 matches the stored one.
/// </summary>
internal static class Rar4AesVector
{
    public const string Password = "test";

    public const string EntryName = "andn.h";

    public static readonly byte[] Salt = Convert.FromHexString("c47c5bef0bbd1e98");

    public static readonly byte[] CipherText = Convert.FromHexString(
        "c5e987f81d316d9dcfdb6a1b27105ce63fca2c594da5aa2f6fdf2f65f50f0d66314f8a09da875ae19d6c15636b65c815");

    /// <summary>The stored FILE_CRC field (little-endian bytes 96 5f 14 53).</summary>
    public const uint Crc = 0x53145F96;

    public static readonly byte[] Plaintext = Encoding.ASCII.GetBytes("#undef andn\n#define andn 0\n#include \"nonstd.c\"\n");

    public static byte[] Archive() => Rar4TestWriter.WriteEncryptedStored(EntryName, Salt, Crc, Plaintext.Length, CipherText);
}

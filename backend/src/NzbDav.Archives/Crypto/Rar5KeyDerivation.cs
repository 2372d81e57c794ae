using System.Security.Cryptography;
using System.Text;

namespace NzbDav.Archives.Crypto;

/// <summary>
/// RAR5 key schedule: PBKDF2-HMAC-SHA256 over the UTF-8 password and the record's salt. The AES key
/// is the value after 2^n iterations; the password check value continues the same chain for 32
/// more iterations and is folded from 32 to 8 bytes by XOR. A single-block PBKDF2 run with more
/// iterations yields exactly that continued chain, so the platform PBKDF2 serves for both.
/// </summary>
internal static class Rar5KeyDerivation
{
    private const int CheckExtraIterations = 32;

    public static (byte[] Key, byte[] PasswordCheck) Derive(string password, ReadOnlySpan<byte> salt, int kdfLog2)
    {
        var passwordBytes = Encoding.UTF8.GetBytes(password);
        var iterations = 1 << kdfLog2;
        var key = Rfc2898DeriveBytes.Pbkdf2(passwordBytes, salt, iterations, HashAlgorithmName.SHA256, 32);
        var checkValue = Rfc2898DeriveBytes.Pbkdf2(passwordBytes, salt, iterations + CheckExtraIterations, HashAlgorithmName.SHA256, 32);
        var check = new byte[8];
        for (var i = 0; i < checkValue.Length; i++)
        {
            check[i % 8] ^= checkValue[i];
        }

        CryptographicOperations.ZeroMemory(passwordBytes);
        return (key, check);
    }
}

using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace NzbDav.Server.Auth;

/// <summary>
/// A PBKDF2-HMAC-SHA256 password hash, stored as <c>pbkdf2-sha256$iterations$salt$hash</c> (base64).
/// </summary>
public sealed class PasswordHash
{
    public const string Scheme = "pbkdf2-sha256";

    /// <summary>Iterations for new hashes.</summary>
    public const int DefaultIterations = 210_000;

    private const int SaltBytes = 16;
    private const int HashBytes = 32;

    private readonly int _iterations;
    private readonly byte[] _salt;
    private readonly byte[] _hash;

    private PasswordHash(int iterations, byte[] salt, byte[] hash)
    {
        _iterations = iterations;
        _salt = salt;
        _hash = hash;
    }

    /// <summary>Hashes <paramref name="password"/> with a fresh random salt.</summary>
    public static PasswordHash Create(string password, int iterations = DefaultIterations)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(iterations, 100_000);
        var salt = RandomNumberGenerator.GetBytes(SaltBytes);
        return new PasswordHash(iterations, salt, Derive(password, salt, iterations));
    }

    /// <summary>Reads the stored form; null when it is not one this class wrote.</summary>
    public static PasswordHash? Parse(string stored)
    {
        var parts = stored.Split('$');
        if (parts.Length != 4 || parts[0] != Scheme
            || !int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var iterations) || iterations < 100_000)
        {
            return null;
        }
        try
        {
            var salt = Convert.FromBase64String(parts[2]);
            var hash = Convert.FromBase64String(parts[3]);
            return salt.Length == SaltBytes && hash.Length == HashBytes ? new PasswordHash(iterations, salt, hash) : null;
        }
        catch (FormatException)
        {
            return null;
        }
    }

    /// <summary>Constant-time check of <paramref name="password"/> against the hash.</summary>
    public bool Verify(string password) =>
        CryptographicOperations.FixedTimeEquals(Derive(password, _salt, _iterations), _hash);

    public override string ToString() =>
        string.Join('$', Scheme, _iterations.ToString(CultureInfo.InvariantCulture), Convert.ToBase64String(_salt), Convert.ToBase64String(_hash));

    private static byte[] Derive(string password, byte[] salt, int iterations) =>
        Rfc2898DeriveBytes.Pbkdf2(Encoding.UTF8.GetBytes(password), salt, iterations, HashAlgorithmName.SHA256, HashBytes);
}

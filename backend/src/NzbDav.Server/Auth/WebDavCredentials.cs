using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;

namespace NzbDav.Server.Auth;

/// <summary>
/// The Basic-auth user and password hash in effect, set once at startup by
/// <see cref="WebDavCredentialInitializer"/>. Successful checks are remembered by the SHA-256 of the
/// Authorization header so a library scan (thousands of PROPFINDs) pays PBKDF2 once, not per request.
/// </summary>
public sealed class WebDavCredentials
{
    /// <summary>Distinct good headers remembered; past this the memory starts over (clients are few).</summary>
    public const int CacheLimit = 64;

    private readonly ConcurrentDictionary<string, byte> _verified = new(StringComparer.Ordinal);
    private State? _state;
    private byte[]? _internalHeader;

    private sealed record State(byte[] User, PasswordHash Hash);

    /// <summary>Puts an account in effect and forgets every remembered header.</summary>
    public void Set(string user, PasswordHash hash)
    {
        Volatile.Write(ref _state, new State(Encoding.UTF8.GetBytes(user), hash));
        _verified.Clear();
    }

    /// <summary>Renames the account, keeping its password; remembered headers carry the old name, so they are forgotten.</summary>
    public void Rename(string user)
    {
        if (Volatile.Read(ref _state) is { } state)
        {
            Set(user, state.Hash);
        }
    }

    /// <summary>
    /// The account NzbDav's own rclone mount uses: a random password made for this process and
    /// written only to rclone's config file, so the mount works whatever the user's password is
    /// (a generated one exists only as its hash). Null removes it.
    /// </summary>
    public void SetInternal(string? user, string? password) =>
        Volatile.Write(ref _internalHeader, user is null || password is null
            ? null
            : SHA256.HashData(Encoding.UTF8.GetBytes("Basic " + Convert.ToBase64String(Encoding.UTF8.GetBytes(user + ":" + password)))));

    /// <summary>Whether <paramref name="authorization"/> is <c>Basic base64(user:password)</c> for the configured account (or the mount's).</summary>
    public bool Verify(string? authorization)
    {
        var state = Volatile.Read(ref _state);
        if (authorization is null || !authorization.StartsWith("Basic ", StringComparison.OrdinalIgnoreCase))
            return false;
        var digest = SHA256.HashData(Encoding.UTF8.GetBytes(authorization));
        if (Volatile.Read(ref _internalHeader) is { } mount && CryptographicOperations.FixedTimeEquals(digest, mount))
            return true;
        if (state is null)
            return false;
        var key = Convert.ToHexString(digest);
        if (_verified.ContainsKey(key))
            return true;
        if (!TryDecode(authorization.AsSpan(6).Trim(), out var user, out var password))
            return false;
        // Both checks always run so the timing does not tell whether the user name was right.
        var userMatches = CryptographicOperations.FixedTimeEquals(Encoding.UTF8.GetBytes(user), state.User);
        var passwordMatches = state.Hash.Verify(password);
        if (!userMatches || !passwordMatches)
            return false;
        if (_verified.Count >= CacheLimit)
            _verified.Clear();
        _verified[key] = 0;
        return true;
    }

    private static bool TryDecode(ReadOnlySpan<char> encoded, out string user, out string password)
    {
        user = password = "";
        var bytes = new byte[encoded.Length];
        if (!Convert.TryFromBase64Chars(encoded, bytes, out var written))
            return false;
        var text = Encoding.UTF8.GetString(bytes, 0, written);
        var colon = text.IndexOf(':');
        if (colon < 0)
            return false;
        user = text[..colon];
        password = text[(colon + 1)..];
        return true;
    }
}

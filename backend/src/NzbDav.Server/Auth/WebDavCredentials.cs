using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.Options;
using NzbDav.Server.WebDav;

namespace NzbDav.Server.Auth;

/// <summary>
/// Checks WebDAV Basic credentials against the account in effect, read through
/// <see cref="IOptionsMonitor{TOptions}"/> at every check (<c>NzbDav:WebDav:User</c>, and
/// <c>Password</c> as configured or <c>PasswordHash</c> as generated or set in the UI), so a change
/// of either applies to the next request. Successful checks are remembered per account by the
/// SHA-256 of the Authorization header, so a library scan (thousands of PROPFINDs) pays PBKDF2 once.
/// </summary>
public sealed class WebDavCredentials(IOptionsMonitor<WebDavOptions> options)
{
    /// <summary>Distinct good headers remembered; past this the memory starts over (clients are few).</summary>
    public const int CacheLimit = 64;

    private Account? _account;
    private byte[]? _internalHeader;

    /// <summary>The account as the options give it, with the headers checked good for it (a new account starts with none).</summary>
    private sealed class Account(string user, string? password, string? passwordHash)
    {
        public string User { get; } = user;

        public string? Password { get; } = password;

        public string? PasswordHashText { get; } = passwordHash;

        public byte[] UserBytes { get; } = Encoding.UTF8.GetBytes(user);

        // A configured password is hashed once per account, not per request.
        public PasswordHash? Hash { get; } = !string.IsNullOrEmpty(password) ? PasswordHash.Create(password) : PasswordHash.Parse(passwordHash ?? "");

        public ConcurrentDictionary<string, byte> Verified { get; } = new(StringComparer.Ordinal);

        public bool Is(string user, string? password, string? passwordHash) =>
            User == user && Password == password && (!string.IsNullOrEmpty(password) || PasswordHashText == passwordHash);
    }

    /// <summary>The user name in effect ("admin" when none is set).</summary>
    public string User => UserOf(options.CurrentValue);

    private static string UserOf(WebDavOptions settings) => string.IsNullOrWhiteSpace(settings.User) ? "admin" : settings.User.Trim();

    private Account Current()
    {
        var settings = options.CurrentValue;
        var user = UserOf(settings);
        var account = Volatile.Read(ref _account);
        if (account is null || !account.Is(user, settings.Password, settings.PasswordHash))
        {
            account = new Account(user, settings.Password, settings.PasswordHash);
            Volatile.Write(ref _account, account);
        }

        return account;
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
        if (authorization is null || !authorization.StartsWith("Basic ", StringComparison.OrdinalIgnoreCase))
            return false;
        var digest = SHA256.HashData(Encoding.UTF8.GetBytes(authorization));
        if (Volatile.Read(ref _internalHeader) is { } mount && CryptographicOperations.FixedTimeEquals(digest, mount))
            return true;
        var account = Current();
        if (account.Hash is null)
            return false;
        var key = Convert.ToHexString(digest);
        if (account.Verified.ContainsKey(key))
            return true;
        if (!TryDecode(authorization.AsSpan(6).Trim(), out var user, out var password))
            return false;
        // Both checks always run so the timing does not tell whether the user name was right.
        var userMatches = CryptographicOperations.FixedTimeEquals(Encoding.UTF8.GetBytes(user), account.UserBytes);
        var passwordMatches = account.Hash.Verify(password);
        if (!userMatches || !passwordMatches)
            return false;
        if (account.Verified.Count >= CacheLimit)
            account.Verified.Clear();
        account.Verified[key] = 0;
        return true;
    }

    /// <summary>Who a verified <paramref name="authorization"/> is, for the traffic ledger: its user name, or "managed mount" for the mount's own account.</summary>
    public string? UserOf(string? authorization)
    {
        if (authorization is null || !authorization.StartsWith("Basic ", StringComparison.OrdinalIgnoreCase))
            return null;
        if (Volatile.Read(ref _internalHeader) is { } mount && CryptographicOperations.FixedTimeEquals(SHA256.HashData(Encoding.UTF8.GetBytes(authorization)), mount))
            return "managed mount";
        return TryDecode(authorization.AsSpan(6).Trim(), out var user, out _) ? user : null;
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

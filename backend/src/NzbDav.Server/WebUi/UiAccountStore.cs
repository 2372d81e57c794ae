using System.Security.Cryptography;
using Microsoft.Extensions.Options;
using NzbDav.Server.Auth;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.WebUi;

/// <summary>
/// The UI's one account, read through <see cref="IOptionsMonitor{TOptions}"/> at every login and
/// session check (<c>NzbDav:Ui:Account</c>, kept in the library by <see cref="StoredSecrets"/>), so a
/// change ends the old sessions at once. Until an account exists, <see cref="SetupCode"/> holds the
/// one-time code the server logged, which the first visitor must enter to create it.
/// </summary>
public sealed class UiAccountStore(IOptionsMonitor<NzbDavOptions> options, StoredSecrets secrets) : IDisposable
{
    // Writes are rare (setup, password change, start) and short; one at a time keeps the check-then-write of setup atomic.
    private readonly SemaphoreSlim _writes = new(1, 1);
    private UiAccount? _parsed;
    private volatile string? _setupCode;

    /// <summary>The account in effect; null before setup.</summary>
    public UiAccount? Current
    {
        get
        {
            var stored = options.CurrentValue.Ui.Account;
            if (string.IsNullOrEmpty(stored.User) || string.IsNullOrEmpty(stored.PasswordHash))
                return null;
            var parsed = Volatile.Read(ref _parsed);
            if (parsed is not null && parsed.User == stored.User && parsed.Stamp == (stored.Stamp ?? "") && parsed.Password.ToString() == stored.PasswordHash)
                return parsed;
            if (PasswordHash.Parse(stored.PasswordHash) is not { } hash)
                return null;
            parsed = new UiAccount(stored.User, hash, stored.Stamp ?? "");
            Volatile.Write(ref _parsed, parsed);
            return parsed;
        }
    }

    /// <summary>The code that creates the first account; null once an account exists.</summary>
    public string? SetupCode => Current is null ? _setupCode : null;

    /// <summary>Makes a new setup code when there is no account; returns it (null when an account exists).</summary>
    public string? IssueSetupCode()
    {
        if (Current is not null)
            return _setupCode = null;
        // 10 characters from an alphabet without look-alikes: about 50 bits, and 10 guesses a minute per address.
        const string alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        var code = RandomNumberGenerator.GetString(alphabet, 10);
        return _setupCode = code[..5] + "-" + code[5..];
    }

    /// <summary>True when <paramref name="code"/> is the current setup code (case, spaces and dashes ignored).</summary>
    public bool IsSetupCode(string? code)
    {
        var expected = SetupCode;
        if (expected is null || code is null)
            return false;
        return CryptographicOperations.FixedTimeEquals(Normalize(expected), Normalize(code));

        static byte[] Normalize(string value) =>
            System.Text.Encoding.ASCII.GetBytes(new string([.. value.Where(char.IsLetterOrDigit).Select(char.ToUpperInvariant)]));
    }

    /// <summary>The account when <paramref name="user"/> and <paramref name="password"/> are its own.</summary>
    public UiAccount? Verify(string? user, string? password)
    {
        var account = Current;
        if (account is null || user is null || password is null)
            return null;
        var nameMatches = string.Equals(account.User, user.Trim(), StringComparison.Ordinal);
        // The hash is checked even for a wrong name, so timing does not tell which of the two was wrong.
        var passwordMatches = account.Password.Verify(password);
        return nameMatches && passwordMatches ? account : null;
    }

    /// <summary>Creates the first account with the setup code; null when one exists already or the code is wrong.</summary>
    public Task<UiAccount?> CreateAsync(string code, string user, string password, CancellationToken cancellationToken) =>
        WriteAsync(() => Current is null && IsSetupCode(code), user, password, cancellationToken);

    /// <summary>Sets name and password; every session issued before ends. Used by a password change and by the configured admin.</summary>
    public async Task<UiAccount> SetAsync(string user, string password, CancellationToken cancellationToken) =>
        (await WriteAsync(static () => true, user, password, cancellationToken))!;

    /// <summary>Saves a new account when <paramref name="allowed"/> still holds once no other write is under way.</summary>
    private async Task<UiAccount?> WriteAsync(Func<bool> allowed, string user, string password, CancellationToken cancellationToken)
    {
        await _writes.WaitAsync(cancellationToken);
        try
        {
            if (!allowed())
                return null;
            var hash = PasswordHash.Create(password);
            await secrets.SetAsync(new Dictionary<string, string>
            {
                [StoredSecretsSource.UiUser] = user.Trim(),
                [StoredSecretsSource.UiPasswordHash] = hash.ToString(),
                [StoredSecretsSource.UiStamp] = Convert.ToHexString(RandomNumberGenerator.GetBytes(16)),
            }, cancellationToken);
            _setupCode = null;
            return Current;
        }
        finally
        {
            _writes.Release();
        }
    }

    public void Dispose() => _writes.Dispose();
}

using System.Security.Cryptography;
using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Auth;

namespace NzbDav.Server.WebUi;

/// <summary>
/// The UI's one account, kept in the library's settings table and in memory (read on every
/// request). Until an account exists, <see cref="SetupCode"/> holds the one-time code the server
/// logged, which the first visitor must enter to create it.
/// </summary>
public sealed class UiAccountStore(IDbContextFactory<NzbDavDbContext> contextFactory) : IDisposable
{
    internal const string UserKey = "ui.admin.user";
    internal const string PasswordKey = "ui.admin.password";
    internal const string StampKey = "ui.admin.stamp";

    // Writes are rare (setup, password change, start) and short; one at a time keeps memory and store in step.
    private readonly SemaphoreSlim _writes = new(1, 1);
    private volatile UiAccount? _account;
    private volatile string? _setupCode;

    public UiAccount? Current => _account;

    /// <summary>The code that creates the first account; null once an account exists.</summary>
    public string? SetupCode => _setupCode;

    /// <summary>Reads the stored account (start-up).</summary>
    public async Task LoadAsync(CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var items = await context.ConfigItems
            .Where(c => c.Key == UserKey || c.Key == PasswordKey || c.Key == StampKey)
            .ToDictionaryAsync(c => c.Key, c => c.Value, cancellationToken);
        _account = items.TryGetValue(UserKey, out var user) && items.TryGetValue(PasswordKey, out var stored) && PasswordHash.Parse(stored) is { } hash
            ? new UiAccount(user, hash, items.GetValueOrDefault(StampKey) ?? NewStamp())
            : null;
    }

    /// <summary>Makes a new setup code when there is no account; returns it (null when an account exists).</summary>
    public string? IssueSetupCode()
    {
        if (_account is not null)
            return _setupCode = null;
        // 10 characters from an alphabet without look-alikes: about 50 bits, and 10 guesses a minute per address.
        const string alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        var code = RandomNumberGenerator.GetString(alphabet, 10);
        return _setupCode = code[..5] + "-" + code[5..];
    }

    /// <summary>True when <paramref name="code"/> is the current setup code (case, spaces and dashes ignored).</summary>
    public bool IsSetupCode(string? code)
    {
        var expected = _setupCode;
        if (expected is null || code is null)
            return false;
        return CryptographicOperations.FixedTimeEquals(Normalize(expected), Normalize(code));

        static byte[] Normalize(string value) =>
            System.Text.Encoding.ASCII.GetBytes(new string([.. value.Where(char.IsLetterOrDigit).Select(char.ToUpperInvariant)]));
    }

    /// <summary>The account when <paramref name="user"/> and <paramref name="password"/> are its own.</summary>
    public UiAccount? Verify(string? user, string? password)
    {
        var account = _account;
        if (account is null || user is null || password is null)
            return null;
        var nameMatches = string.Equals(account.User, user.Trim(), StringComparison.Ordinal);
        // The hash is checked even for a wrong name, so timing does not tell which of the two was wrong.
        var passwordMatches = account.Password.Verify(password);
        return nameMatches && passwordMatches ? account : null;
    }

    /// <summary>Creates the first account with the setup code; null when one exists already or the code is wrong.</summary>
    public Task<UiAccount?> CreateAsync(string code, string user, string password, CancellationToken cancellationToken) =>
        WriteAsync(() => _account is null && IsSetupCode(code), user, password, cancellationToken);

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
            var account = await SaveAsync(user, PasswordHash.Create(password), cancellationToken);
            _setupCode = null;
            return account;
        }
        finally
        {
            _writes.Release();
        }
    }

    private async Task<UiAccount> SaveAsync(string user, PasswordHash hash, CancellationToken cancellationToken)
    {
        var account = new UiAccount(user.Trim(), hash, NewStamp());
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var items = await context.ConfigItems
            .Where(c => c.Key == UserKey || c.Key == PasswordKey || c.Key == StampKey)
            .ToDictionaryAsync(c => c.Key, cancellationToken);
        Put(context, items, UserKey, account.User);
        Put(context, items, PasswordKey, hash.ToString());
        Put(context, items, StampKey, account.Stamp);
        await context.SaveChangesAsync(cancellationToken);
        _account = account;
        return account;
    }

    private static void Put(NzbDavDbContext context, Dictionary<string, ConfigItem> items, string key, string value)
    {
        if (items.TryGetValue(key, out var item))
            item.Value = value;
        else
            context.ConfigItems.Add(new ConfigItem { Key = key, Value = value });
    }

    public void Dispose() => _writes.Dispose();

    private static string NewStamp() => Convert.ToHexString(RandomNumberGenerator.GetBytes(16));
}

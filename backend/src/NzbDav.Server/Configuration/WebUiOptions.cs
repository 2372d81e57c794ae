namespace NzbDav.Server.Configuration;

/// <summary>The <c>NzbDav:Ui</c> section: the web UI's files and its administrator account.</summary>
public sealed class WebUiOptions
{
    /// <summary>
    /// The folder holding the built UI (its <c>index.html</c> and <c>assets/</c>); by default the
    /// <c>ui</c> folder the build copies beside the server. Read at startup.
    /// </summary>
    public string? Directory { get; set; }

    /// <summary>
    /// With <see cref="AdminPassword"/>: the administrator account is made to match at start (created,
    /// or its name and password replaced when they differ, which ends every session). This is how a
    /// forgotten password is reset from the command line or the environment; demo mode uses it too.
    /// </summary>
    public string? AdminUser { get; set; }

    /// <inheritdoc cref="AdminUser" />
    public string? AdminPassword { get; set; }

    /// <summary>Login and setup attempts allowed per client address per minute; changes apply at the next start.</summary>
    public int LoginAttemptsPerMinute { get; set; } = 10;

    /// <summary>How often the dashboard's live feed samples and sends a snapshot (at least 20 ms); applies from the next tick.</summary>
    public TimeSpan LiveInterval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>How long a UI session lasts without use.</summary>
    public TimeSpan SessionIdleTimeout { get; set; } = TimeSpan.FromDays(7);

    /// <summary>
    /// The administrator account as the server keeps it (created at setup, changed by a password
    /// change or by <see cref="AdminUser"/>/<see cref="AdminPassword"/>): stored in the library, in
    /// the lowest configuration layer, and read at every login and session check.
    /// </summary>
    public UiAccountOptions Account { get; set; } = new();
}

/// <summary>The <c>NzbDav:Ui:Account</c> section, kept by the server (see <see cref="WebUiOptions.Account"/>).</summary>
public sealed class UiAccountOptions
{
    public string? User { get; set; }

    /// <summary>The password as a PBKDF2 hash.</summary>
    public string? PasswordHash { get; set; }

    /// <summary>Changes with every change of name or password; a session issued under another stamp ends.</summary>
    public string? Stamp { get; set; }
}

using NzbDav.Server.Auth;

namespace NzbDav.Server.WebUi;

/// <summary>
/// The administrator of the web UI. <see cref="Stamp"/> changes with every change of name or
/// password; a session carries the stamp it was issued with and is refused once it differs.
/// </summary>
public sealed record UiAccount(string User, PasswordHash Password, string Stamp);

namespace NzbDav.Server.Auth;

/// <summary>
/// Endpoint metadata: a request that <see cref="Admits"/> accepts needs no Basic auth, because the
/// endpoint takes another credential (the API key) or is opened to anyone by configuration. Every
/// other request to it still needs the WebDAV credentials, and is refused with the Basic challenge.
/// </summary>
/// <param name="Account">Who a request it admits counts as in the traffic ledger ("strm link").</param>
public sealed record AlternativeAuthentication(string Reason, Func<HttpContext, bool> Admits, string? Account = null);

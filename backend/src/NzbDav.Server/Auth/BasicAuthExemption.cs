namespace NzbDav.Server.Auth;

/// <summary>
/// Endpoint metadata that lets a request skip WebDAV Basic auth. Only <c>GET /health</c> (container
/// health checks) and <c>/api</c> (SABnzbd clients authenticate with the API key there) carry it.
/// </summary>
public sealed record BasicAuthExemption(string Reason);

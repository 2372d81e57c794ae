namespace NzbDav.Server.Hosting;

/// <summary>Body of <c>GET /health</c>.</summary>
public sealed record HealthResponse(string Status);

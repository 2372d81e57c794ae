namespace NzbDav.MockNntp;

/// <summary>How a <see cref="MockNntpServer"/> is started. Runtime-changeable parts live in <see cref="Behavior"/>.</summary>
public sealed record MockNntpOptions
{
    /// <summary>TCP port on 127.0.0.1; 0 picks a free one (read it from <see cref="MockNntpServer.Port"/>).</summary>
    public int Port { get; init; }

    /// <summary>Implicit TLS with a self-signed certificate generated at start.</summary>
    public bool UseTls { get; init; }

    /// <summary>When set (with <see cref="Password"/>), AUTHINFO is required before any article command.</summary>
    public string? User { get; init; }

    public string? Password { get; init; }

    /// <summary>
    /// Behave like INN towards a host it also takes feeds from: greet "(transit mode)", list
    /// MODE-READER among the capabilities, answer article commands "401 MODE-READER" and AUTHINFO
    /// 502 until the client sends MODE READER.
    /// </summary>
    public bool TransitMode { get; init; }

    /// <summary>Concurrent sessions allowed; beyond it a new connection gets 502 and is closed. Null is unlimited.</summary>
    public int? MaxConnections { get; init; }

    /// <summary>Seeds generated content, missing articles, jitter and fault draws.</summary>
    public int Seed { get; init; } = 1;

    /// <summary>
    /// Replaces the random per-instance part of every message-id, so two servers given the same
    /// token, seed and files hold the same articles (a primary and a backup provider of one post).
    /// </summary>
    public string? MessageIdToken { get; init; }

    /// <summary>
    /// Accept the test-only <c>XMOCK</c> command, which makes articles disappear and come back while
    /// the server runs (for a test driving the executable from another process). Off by default.
    /// </summary>
    public bool AllowControl { get; init; }

    /// <summary>Latency, bandwidth and faults; shared, mutable at runtime.</summary>
    public MockBehavior Behavior { get; init; } = new();
}

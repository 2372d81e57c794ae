namespace NzbDav.Usenet.Providers;

/// <summary>One Usenet provider account as the user configured it.</summary>
public sealed record UsenetProviderOptions
{
    /// <summary>Display name; unique among providers.</summary>
    public required string Name { get; init; }
    public required string Host { get; init; }
    /// <summary>False keeps the provider configured but unused (its sessions close).</summary>
    public bool Enabled { get; init; } = true;
    public int Port { get; init; } = 563;
    /// <summary>Implicit TLS (port 563 style); there is no STARTTLS.</summary>
    public bool UseTls { get; init; } = true;
    /// <summary>Accept any server certificate (self-signed test servers only).</summary>
    public bool AllowUntrustedCertificate { get; init; }
    public string? User { get; init; }
    public string? Password { get; init; }
    /// <summary>Never more sessions than this open at once: providers ban accounts that exceed it.</summary>
    public int MaxConnections { get; init; } = 10;
    public ProviderRole Role { get; init; } = ProviderRole.Primary;
    /// <summary>Lower is asked first.</summary>
    public int Priority { get; init; }
    /// <summary>BODY/STAT commands in flight per session.</summary>
    public int PipelineDepth { get; init; } = 4;
    /// <summary>Deadline for one operation (connect, one command's answer, or a gap in a body).</summary>
    public TimeSpan OperationTimeout { get; init; } = TimeSpan.FromSeconds(30);
    /// <summary>An idle session older than this is closed.</summary>
    public TimeSpan IdleTimeout { get; init; } = TimeSpan.FromSeconds(60);
    /// <summary>
    /// How long closing a session may wait for the provider to confirm it ended (QUIT answered, or
    /// end of stream after a half-close) before the socket is cut; its slot is reused only after
    /// that. Zero cuts at once.
    /// </summary>
    public TimeSpan CloseTimeout { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>Bytes the provider may send per day (UTC); null: no daily allowance. At it the provider is passed over until 00:00 UTC.</summary>
    public long? DailyQuotaBytes { get; init; }

    /// <summary>Bytes the provider may send per month, counted from <see cref="QuotaResetDay"/>; null: no monthly allowance.</summary>
    public long? MonthlyQuotaBytes { get; init; }

    /// <summary>The day of the month (1–28) a monthly allowance starts again, at 00:00 UTC.</summary>
    public int QuotaResetDay { get; init; } = 1;

    /// <summary>"Never more than this many bytes in <see cref="QuotaWindowHours"/>": a rolling allowance; null: none.</summary>
    public long? WindowQuotaBytes { get; init; }

    /// <summary>The rolling allowance's window in whole hours (1–8,760), counted back from the current hour.</summary>
    public int QuotaWindowHours { get; init; } = 24;

    /// <summary>Bytes per second this provider may send (its own cap, under the global one); null: none.</summary>
    public long? MaxBytesPerSecond { get; init; }
}

namespace NzbDav.Usenet.Providers;

/// <summary>
/// A provider as the client uses it: its pool and breaker. Settings for the same account change in
/// place; an endpoint whose provider was removed, disabled or re-pointed is retired (its leases
/// stop taking work and its sessions close).
/// </summary>
internal sealed class ProviderEndpoint(ProviderConnectionPool pool, CircuitBreaker breaker)
{
    private int _retired;

    public ProviderConnectionPool Pool { get; } = pool;

    public CircuitBreaker Breaker { get; } = breaker;

    public UsenetProviderOptions Options => Pool.Provider;

    public string Name => Options.Name;

    public bool IsPrimary => Options.Role == ProviderRole.Primary;

    /// <summary>A block account: leased only for what nothing else can serve (see <see cref="ProviderRole.Block"/>).</summary>
    public bool IsBlock => Options.Role == ProviderRole.Block;

    /// <summary>A backup-only provider: where straggler races run.</summary>
    public bool IsBackup => Options.Role == ProviderRole.BackupOnly;

    /// <summary>Removed from the client's providers: nothing new goes to it.</summary>
    public bool IsRetired => Volatile.Read(ref _retired) != 0;

    /// <summary>Reports a connection-level failure to the breaker, worded for the dashboard.</summary>
    public void Fail(Exception? error) => Breaker.OnFailure(error is null ? null : ProviderFaults.Explain(error, Options, Options.OperationTimeout));

    /// <summary>Marks the endpoint retired; the first call returns true.</summary>
    public bool MarkRetired() => Interlocked.Exchange(ref _retired, 1) == 0;
}

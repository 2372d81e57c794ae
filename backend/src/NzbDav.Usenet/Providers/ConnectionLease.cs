using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

/// <summary>
/// Exclusive use of one pooled session. The holder may keep up to
/// <see cref="INntpConnection.PipelineDepth"/> operations in flight on it. Disposing returns it to
/// the pool (or, if it broke, closes it and frees its slot); disposing again does nothing.
/// </summary>
public sealed class ConnectionLease : IAsyncDisposable
{
    private ProviderConnectionPool? _pool;

    internal ConnectionLease(ProviderConnectionPool pool, INntpConnection connection)
    {
        _pool = pool;
        Connection = connection;
        ProviderName = pool.Provider.Name;
    }

    /// <summary>The leased session.</summary>
    public INntpConnection Connection { get; }

    /// <summary>The provider the session belongs to.</summary>
    public string ProviderName { get; }

    /// <summary>Gives the session back.</summary>
    public ValueTask DisposeAsync()
    {
        var pool = Interlocked.Exchange(ref _pool, null);
        return pool is null ? ValueTask.CompletedTask : pool.ReturnAsync(Connection);
    }
}

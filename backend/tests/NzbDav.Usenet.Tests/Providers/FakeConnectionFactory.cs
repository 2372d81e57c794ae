using System.Collections.Concurrent;
using System.Net.Sockets;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>Opens <see cref="FakeConnection"/>s and counts, per provider, how many are open at once.</summary>
internal sealed class FakeConnectionFactory : INntpConnectionFactory
{
    private readonly ConcurrentDictionary<string, FakeProvider> _providers = new();
    private readonly ConcurrentQueue<FakeConnection> _opened = new();
    private int _nextId;

    public FakeProvider this[string name] => _providers.GetOrAdd(name, n => new FakeProvider(n));

    public IReadOnlyCollection<FakeConnection> Opened => _opened;

    /// <summary>When set, the next connect attempts throw this instead of connecting.</summary>
    public Func<Exception>? NextConnectError { get; set; }

    public async Task<INntpConnection> ConnectAsync(UsenetProviderOptions provider, TimeProvider time, CancellationToken cancellationToken)
    {
        var fake = this[provider.Name];
        fake.CountConnectAttempt();
        await fake.WaitAtGateAsync(cancellationToken);
        if (NextConnectError is { } error)
        {
            throw error();
        }

        if (fake.RefuseConnections)
        {
            throw new SocketException((int)SocketError.ConnectionRefused);
        }

        fake.Opened();
        var connection = new FakeConnection(fake, Interlocked.Increment(ref _nextId));
        _opened.Enqueue(connection);
        return connection;
    }
}

using System.Collections.Concurrent;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>Wraps the real factory and counts connect attempts per provider.</summary>
internal sealed class CountingConnectionFactory(INntpConnectionFactory inner) : INntpConnectionFactory
{
    private readonly ConcurrentDictionary<string, int> _attempts = new();

    public int AttemptsOn(string provider) => _attempts.GetValueOrDefault(provider);

    public Task<INntpConnection> ConnectAsync(UsenetProviderOptions provider, TimeProvider time, CancellationToken cancellationToken)
    {
        _attempts.AddOrUpdate(provider.Name, 1, (_, count) => count + 1);
        return inner.ConnectAsync(provider, time, cancellationToken);
    }
}

using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Tests.Providers;

internal static class PoolTestKit
{
    public static UsenetProviderOptions Provider(string name = "alpha", int max = 3, ProviderRole role = ProviderRole.Primary, int priority = 0) => new()
    {
        Name = name,
        Host = "fake.invalid",
        MaxConnections = max,
        Role = role,
        Priority = priority,
        IdleTimeout = TimeSpan.FromSeconds(60),
        OperationTimeout = TimeSpan.FromSeconds(30),
    };

    public static ProviderConnectionPool Pool(FakeConnectionFactory factory, TimeProvider time, int max = 3) =>
        new(Provider(max: max), factory, time, NullLogger.Instance);

    public static CancellationToken Token => TestContext.Current.CancellationToken;
}

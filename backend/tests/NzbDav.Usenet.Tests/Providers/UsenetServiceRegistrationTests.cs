using Microsoft.Extensions.DependencyInjection;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Tests.Providers;

public sealed class UsenetServiceRegistrationTests
{
    [Fact]
    public void Registers_the_stack_as_singletons_and_keeps_earlier_registrations()
    {
        var services = new ServiceCollection();
        var custom = new LimiterOptions { TotalConnections = 6, QueueGuarantee = 2 };
        services.AddSingleton(custom);
        var options = new UsenetOptions { Providers = [PoolTestKit.Provider("a", max: 6)] };

        services.AddUsenetClient(options);

        Assert.All(services, d => Assert.Equal(ServiceLifetime.Singleton, d.Lifetime));
        Assert.Same(custom, Single<LimiterOptions>(services).ImplementationInstance);
        Assert.Same(options, Single<UsenetOptions>(services).ImplementationInstance);
        Assert.Same(TimeProvider.System, Single<TimeProvider>(services).ImplementationInstance);
        Assert.Equal(typeof(NntpConnectionFactory), Single<INntpConnectionFactory>(services).ImplementationType);
        Assert.Equal(typeof(UsenetClient), Single<UsenetClient>(services).ImplementationType);
        Assert.NotNull(Single<GlobalOperationLimiter>(services).ImplementationFactory);
    }

    [Fact]
    public void Rejects_an_invalid_provider_list_at_registration_but_takes_an_empty_one()
    {
        var error = Assert.Throws<ArgumentException>(() => new ServiceCollection().AddUsenetClient(
            new UsenetOptions { Providers = [PoolTestKit.Provider("a", max: 2), PoolTestKit.Provider("A", max: 2)] }));
        Assert.Contains("used twice", error.Message);

        // A fresh install has no provider yet: the client exists, and the limiter has a budget of one.
        var services = new ServiceCollection().AddUsenetClient(new UsenetOptions());
        Assert.Equal(1, ((LimiterOptions)Single<LimiterOptions>(services).ImplementationInstance!).TotalConnections);
    }

    private static ServiceDescriptor Single<T>(IServiceCollection services) => Assert.Single(services, d => d.ServiceType == typeof(T));
}

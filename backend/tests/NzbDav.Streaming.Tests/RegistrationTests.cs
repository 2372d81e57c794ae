using Microsoft.Extensions.DependencyInjection;

namespace NzbDav.Streaming.Tests;

public sealed class RegistrationTests
{
    [Fact]
    public void Registers_the_options_and_one_factory_and_keeps_earlier_options()
    {
        var services = new ServiceCollection();
        var custom = new StreamingOptions { ConnectionsPerStream = 7 };
        services.AddSingleton(custom);

        services.AddNzbFileStreams();

        Assert.Same(custom, Assert.Single(services, d => d.ServiceType == typeof(StreamingOptions)).ImplementationInstance);
        var factory = Assert.Single(services, d => d.ServiceType == typeof(NzbFileStreamFactory));
        Assert.Equal(ServiceLifetime.Singleton, factory.Lifetime);
        Assert.Throws<ArgumentException>(() => new ServiceCollection().AddNzbFileStreams(new StreamingOptions { KeepBehindSegments = -1 }));
    }
}

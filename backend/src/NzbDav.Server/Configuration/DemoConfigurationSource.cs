using Microsoft.Extensions.Configuration.Memory;

namespace NzbDav.Server.Configuration;

/// <summary>
/// What demo mode sets (its library, account and mock provider), as the top configuration layer:
/// it wins like the command line, and the UI names it "demo mode" instead of claiming the user
/// typed it on a command line.
/// </summary>
public sealed class DemoConfigurationSource(IEnumerable<KeyValuePair<string, string?>> values) : IConfigurationSource
{
    public IConfigurationProvider Build(IConfigurationBuilder builder) => new DemoConfigurationProvider(new MemoryConfigurationSource { InitialData = values });
}

/// <summary>The provider of <see cref="DemoConfigurationSource"/>.</summary>
public sealed class DemoConfigurationProvider(MemoryConfigurationSource source) : MemoryConfigurationProvider(source);

using NzbDav.Streaming;

namespace NzbDav.Streaming.Tests;

public sealed class AssemblyTests
{
    [Fact]
    public void Engine_assembly_loads_with_its_name() =>
        Assert.Equal(StreamingAssembly.Name, typeof(StreamingAssembly).Assembly.GetName().Name);
}

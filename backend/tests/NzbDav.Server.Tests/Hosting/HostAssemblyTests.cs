using NzbDav.Server.Hosting;

namespace NzbDav.Server.Tests.Hosting;

/// <summary>The product host ships without its test rig: the mock server and the tools stay outside it.</summary>
public sealed class HostAssemblyTests
{
    [Fact]
    public void The_host_references_neither_the_mock_server_nor_the_tools()
    {
        var references = typeof(NzbDavHost).Assembly.GetReferencedAssemblies().Select(a => a.Name).ToList();

        Assert.Contains("NzbDav.Usenet", references);
        Assert.DoesNotContain("MockNntpServer", references);
        Assert.DoesNotContain("NzbDav.Tools", references);
    }
}

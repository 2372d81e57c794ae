using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Nzb;

namespace NzbDav.Testing;

/// <summary>
/// One mock NNTP provider (tools/MockNntpServer on 127.0.0.1, port 0; no latency, faults, login or
/// TLS) shared by the tests of an assembly, a collection or a class that only need a provider
/// holding their articles. Each test adds its own files and writes an NZB of those files only
/// (<see cref="Nzb"/>), so tests sharing it never see each other's releases; marking a test's own
/// articles missing or corrupt touches nobody else's. A test that changes the provider's
/// behaviour (latency, outages, a connection cap), reads its counters or needs a login or TLS
/// starts a private <see cref="MockNntpServer"/> instead: those belong to the whole server.
/// </summary>
public class MockProviderFixture : IAsyncLifetime
{
    public MockProviderFixture()
        : this(new MockNntpOptions())
    {
    }

    protected MockProviderFixture(MockNntpOptions options) => Server = new MockNntpServer(options);

    public MockNntpServer Server { get; }

    /// <summary>The listening port (valid once the fixture is initialized).</summary>
    public int Port => Server.Port;

    public MockArticleStore Store => Server.Store;

    /// <summary>An NZB of <paramref name="files"/> alone, titled <paramref name="title"/>.</summary>
    public byte[] Nzb(string? title, params IReadOnlyList<MockFile> files)
    {
        using var nzb = new MemoryStream();
        MockNzbWriter.Write(nzb, files, title, Server.StartedAt);
        return nzb.ToArray();
    }

    /// <summary>Starts listening; a derived fixture adds the files every test of it reads first.</summary>
    public virtual ValueTask InitializeAsync() => new(Server.StartAsync(CancellationToken.None));

    public async ValueTask DisposeAsync()
    {
        await Server.DisposeAsync().ConfigureAwait(false);
        GC.SuppressFinalize(this);
    }
}

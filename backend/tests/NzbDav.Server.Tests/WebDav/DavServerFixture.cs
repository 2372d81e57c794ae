using NzbDav.Server.Tests.Data;

namespace NzbDav.Server.Tests.WebDav;

/// <summary>
/// One <see cref="DavTestServer"/> started once for the tests of a class (<c>IClassFixture</c>) that
/// only send it requests: they neither seed jobs into it nor read its logs or its opener's counts,
/// so what one test does cannot change what another sees. A test that does starts its own server.
/// </summary>
public sealed class DavServerFixture : IAsyncLifetime
{
    private readonly TempDirectory _data = new();

    public DavTestServer Server { get; private set; } = null!;

    public async ValueTask InitializeAsync() =>
        Server = await DavTestServer.StartAsync(_data.Path, TestContext.Current.CancellationToken);

    public async ValueTask DisposeAsync()
    {
        if (Server is not null)
            await Server.DisposeAsync();
        _data.Dispose();
    }
}

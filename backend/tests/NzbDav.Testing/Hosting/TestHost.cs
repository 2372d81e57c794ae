using System.Net.Http.Headers;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.DependencyInjection;

namespace NzbDav.Testing.Hosting;

/// <summary>A started host from <see cref="TestHostBuilder"/>: its address and services; disposing stops it.</summary>
public sealed class TestHost : IAsyncDisposable
{
    private readonly WebApplication _app;
    private int _disposed;

    internal TestHost(WebApplication app)
    {
        _app = app;
        Address = new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.Single());
    }

    /// <summary>Where it listens, <c>http://127.0.0.1:port</c>.</summary>
    public Uri Address { get; }

    public IServiceProvider Services => _app.Services;

    /// <summary>A client for <see cref="Address"/>, sending <paramref name="authorization"/> on every request when given.</summary>
    public HttpClient CreateClient(AuthenticationHeaderValue? authorization = null)
    {
        var client = new HttpClient { BaseAddress = Address };
        client.DefaultRequestHeaders.Authorization = authorization;
        return client;
    }

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        var store = _app.Services.GetService<NzbDav.Data.LibraryStore>();
        await _app.StopAsync(CancellationToken.None).ConfigureAwait(false);
        await _app.DisposeAsync().ConfigureAwait(false);
        // Pooled connections would keep the data directory's database files open after the test,
        // or hold PostgreSQL sessions (the server allows a few hundred) for minutes.
        SqliteConnection.ClearAllPools();
        if (store?.Provider == NzbDav.Data.StoreProvider.Postgres)
        {
            using var connection = new Npgsql.NpgsqlConnection(store.ConnectionString);
            Npgsql.NpgsqlConnection.ClearPool(connection);
        }
    }
}

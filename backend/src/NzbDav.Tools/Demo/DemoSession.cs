using NzbDav.MockNntp;

namespace NzbDav.Tools.Demo;

/// <summary>A running demo: the host, its mock provider and the line that was printed. Disposing stops both.</summary>
public sealed class DemoSession : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly MockNntpServer _nntp;

    internal DemoSession(WebApplication app, MockNntpServer nntp, DemoLine line)
    {
        _app = app;
        _nntp = nntp;
        Line = line;
    }

    public DemoLine Line { get; }

    public IServiceProvider Services => _app.Services;

    /// <summary>Completes when the host shuts down (Ctrl+C, SIGTERM).</summary>
    public Task WaitForShutdownAsync(CancellationToken cancellationToken) => _app.WaitForShutdownAsync(cancellationToken);

    public ValueTask DisposeAsync() => StopAsync(_app, _nntp);

    internal static async ValueTask StopAsync(WebApplication? app, MockNntpServer nntp)
    {
        if (app is not null)
        {
            await app.StopAsync(CancellationToken.None);
            await app.DisposeAsync();
        }

        await nntp.DisposeAsync();
        // The demo database is deleted on the next start; pooled handles would keep it open.
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
    }
}

using System.Diagnostics;
using System.Text;
using Microsoft.Extensions.Options;
using NzbDav.Data.Entities;
using NzbDav.Server.Auth;
using NzbDav.Server.WebDav;
using NzbDav.Streaming;

namespace NzbDav.Server.Hosting;

/// <summary>
/// Pays the GET path's one-time costs at startup instead of in the first client's time to first
/// byte. Hosted services start before Kestrel listens, so when the server accepts its first request
/// the configured account's PBKDF2 check is remembered and EF Core has compiled the tree's queries.
/// Then, in the background so startup is not delayed, <see cref="StreamingPathWarmup"/> runs the
/// streaming read path on in-memory sessions (once the server listens), the stream factory fills its
/// chunk pool up to the read-ahead budget (<see cref="NzbFileStreamFactory.WarmBuffers"/>) and
/// <see cref="ConnectionPrewarmer"/> opens sessions to the configured providers.
/// </summary>
internal sealed class StartupWarmup(
    IOptionsMonitor<WebDavOptions> davOptions,
    IOptionsMonitor<StreamingOptions> streaming,
    WebDavCredentials credentials,
    DavTree tree,
    ConnectionPrewarmer prewarmer,
    NzbFileStreamFactory streams,
    IHostApplicationLifetime lifetime,
    TimeProvider time,
    ILogger<StartupWarmup> logger) : IHostedService, IDisposable
{
    private const string LocalBaseUrl = "http://localhost";

    private readonly CancellationTokenSource _stopping = new();
    private readonly TaskCompletionSource _listening = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private CancellationTokenRegistration _started;
    private Task<bool> _streaming = Task.FromResult(false);

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        try
        {
            WarmCredentials();
            await WarmTreeAsync(cancellationToken);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            // A warm-up is an optimisation: whatever fails here fails again, visibly, on a real request.
            logger.LogWarning(ex, "Startup warm-up of the WebDAV path failed; the first request pays its costs instead");
        }

        logger.LogDebug("Warmed the WebDAV request path in {ElapsedMs:F0} ms", Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        // It needs no provider, so it runs whether or not one is configured. It waits until Kestrel
        // listens: run during the start, its ~0.7 s of compilation on two cores was the start's own
        // time (the server answered /health that much later), and no stream can start before then.
        _started = lifetime.ApplicationStarted.Register(static state => ((TaskCompletionSource)state!).TrySetResult(), _listening);
        _streaming = Task.Run(() => WarmStreamingOnceListeningAsync(_stopping.Token), CancellationToken.None);
        prewarmer.Start();
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        await _stopping.CancelAsync();
        await _streaming.WaitAsync(cancellationToken);
        await prewarmer.StopAsync(cancellationToken);
    }

    public void Dispose()
    {
        _started.Dispose();
        _stopping.Dispose();
    }

    /// <summary>The background warm-up of the streaming path: true once it ran to its end.</summary>
    internal Task<bool> Streaming => _streaming;

    private async Task<bool> WarmStreamingOnceListeningAsync(CancellationToken cancellationToken)
    {
        try
        {
            await _listening.Task.WaitAsync(cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Stopped before the server listened: nothing to warm.
            return false;
        }

        return await WarmStreamingAsync(cancellationToken);
    }

    private async Task<bool> WarmStreamingAsync(CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        try
        {
            await StreamingPathWarmup.RunAsync(streaming.CurrentValue, time, cancellationToken);
            var chunks = streams.WarmBuffers(cancellationToken);
            logger.LogDebug("Warmed the streaming read path and allocated {Chunks} buffer chunks in {ElapsedMs:F0} ms", chunks, Stopwatch.GetElapsedTime(started).TotalMilliseconds);
            return !cancellationToken.IsCancellationRequested;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Stopped before it finished: nothing to report.
            return false;
        }
        catch (Exception ex)
        {
            logger.LogWarning(ex, "Warm-up of the streaming read path failed; the first playback pays its compilation instead");
            return false;
        }
    }

    private void WarmCredentials()
    {
        // Only a configured password is known in clear; a generated one exists only as its hash, and
        // then the first client pays one PBKDF2 check (then its header is remembered too).
        var settings = davOptions.CurrentValue;
        if (string.IsNullOrEmpty(settings.Password))
            return;
        var user = string.IsNullOrWhiteSpace(settings.User) ? "admin" : settings.User.Trim();
        credentials.Verify("Basic " + Convert.ToBase64String(Encoding.UTF8.GetBytes(user + ":" + settings.Password)));
    }

    private async Task WarmTreeAsync(CancellationToken cancellationToken)
    {
        // Paths that cannot exist still run (and so compile) the queries a GET and a scan use.
        IReadOnlyList<string> category = [DavTree.Content, DavTree.DefaultCategoryFolder];
        await tree.ResolveAsync([.. category, "\u0001", "\u0001"], LocalBaseUrl, cancellationToken);
        await tree.ResolveAsync([DavTree.Ids, Guid.Empty.ToString("D")], LocalBaseUrl, cancellationToken);
        if (await tree.ResolveAsync(category, LocalBaseUrl, cancellationToken) is { } folder)
            await tree.ListAsync(folder, LocalBaseUrl, cancellationToken);
        var job = new DavResource
        {
            Segments = [.. category, "\u0001"],
            Kind = DavResourceKind.JobFolder,
            Item = new DavItem { Id = Guid.Empty, Name = "\u0001", Path = "/", IsDirectory = true },
        };
        await tree.ListAsync(job, LocalBaseUrl, cancellationToken);
    }
}

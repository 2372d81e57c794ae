using System.Diagnostics;
using System.Text;
using Microsoft.Extensions.Options;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;
using NzbDav.Server.Auth;
using NzbDav.Server.WebDav;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Hosting;

/// <summary>
/// Pays the GET path's one-time costs at startup instead of in the first client's time to first
/// byte. Hosted services start before Kestrel listens, so when the server accepts its first request
/// the configured account's PBKDF2 check is remembered, EF Core has compiled the tree's queries, the
/// streaming singletons exist and the opener has run once. Connections are opened afterwards by
/// <see cref="ConnectionPrewarmer"/>, in the background, so a slow provider never delays startup.
/// </summary>
internal sealed class StartupWarmup(
    IServiceProvider services,
    IOptions<WebDavOptions> davOptions,
    WebDavCredentials credentials,
    DavTree tree,
    ConnectionPrewarmer prewarmer,
    ILogger<StartupWarmup> logger) : IHostedService
{
    private const string LocalBaseUrl = "http://localhost";

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        try
        {
            WarmCredentials();
            await WarmTreeAsync(cancellationToken);
            await WarmOpenerAsync(cancellationToken);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            // A warm-up is an optimisation: whatever fails here fails again, visibly, on a real request.
            logger.LogWarning(ex, "Startup warm-up of the WebDAV path failed; the first request pays its costs instead");
        }

        logger.LogDebug("Warmed the WebDAV GET path in {ElapsedMs:F0} ms", Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        prewarmer.Start();
    }

    public Task StopAsync(CancellationToken cancellationToken) => prewarmer.StopAsync(cancellationToken);

    private void WarmCredentials()
    {
        // Only a configured password is known in clear; a generated one exists only as its hash, and
        // then the first client pays one PBKDF2 check (then its header is remembered too).
        var settings = davOptions.Value;
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

    private async Task WarmOpenerAsync(CancellationToken cancellationToken)
    {
        // Without a provider the opener refuses every file; nothing to warm.
        if (services.GetService<UsenetClient>() is null || services.GetServices<IDavFileOpener>().LastOrDefault() is not LayoutDavFileOpener opener)
            return;
        var layout = DavFileLayoutCodec.Encode(new DavFileLayout([LayoutPart.WholeFile(["warmup@nzbdav.invalid"], 1, 1)]));
        var item = new DavItem { Id = Guid.Empty, Name = "warmup", Path = "/warmup", Size = 1, Layout = layout };
        // Opening and positioning fetch nothing: inner streams open on the first read.
        await using var stream = await opener.OpenAsync(item, cancellationToken);
        stream.Seek(0, SeekOrigin.Begin);
    }
}

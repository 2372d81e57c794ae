using System.Security.Cryptography;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Nzb;
using NzbDav.Server.Api;
using NzbDav.Server.Configuration;
using NzbDav.Server.Hosting;

namespace NzbDav.Tools.Demo;

/// <summary>
/// <c>--demo</c>: the real host with an in-process mock NNTP server as its only provider. Sample files
/// are posted to it and submitted through <see cref="JobSubmitter"/> like any NZB; once every job is
/// Completed one <see cref="DemoLine"/> is written to the given output.
/// </summary>
public sealed class DemoRunner
{
    /// <summary>WebDAV user of the demo library.</summary>
    public const string User = "demo";

    private DemoRunner()
    {
    }

    /// <summary>Starts the demo; <paramref name="args"/> are the host's arguments without <c>--demo</c>.</summary>
    public static async Task<DemoSession> StartAsync(string[] args, TextWriter output, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(output);
        var paths = DemoPaths.Resolve(args);
        paths.PrepareFreshLibrary();
        var password = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(12));
        var nntp = new MockNntpServer();
        WebApplication? app = null;
        try
        {
            await nntp.StartAsync(cancellationToken);
            app = NzbDavHost.Build(args, null, Overrides(paths, nntp.Port, password));
            await app.StartAsync(cancellationToken);
            var logger = app.Services.GetRequiredService<ILogger<DemoRunner>>();
            using var stopping = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, app.Lifetime.ApplicationStopping);

            var samples = await DemoContent.PrepareAsync(paths, logger, stopping.Token);
            var submitter = app.Services.GetRequiredService<JobSubmitter>();
            var nzoIds = new List<string>();
            foreach (var sample in samples)
                nzoIds.Add(await SubmitAsync(nntp, submitter, sample, paths, stopping.Token));
            await DemoCompletion.WaitAsync(app.Services, nzoIds, stopping.Token);

            var apiKey = app.Services.GetRequiredService<ApiKeyProvider>().ApiKey
                ?? throw new DemoFailedException("The API key was not initialised.");
            var root = RootUrl(app);
            var line = new DemoLine(root, User, password, apiKey, new Uri(root, "ui/"));
            await output.WriteLineAsync(line.ToString());
            await output.FlushAsync(cancellationToken);
            logger.LogInformation(
                "Demo library ready at {Url} ({Jobs} jobs from the in-process mock provider on port {Port}); their NZBs, to add again from the UI, are in {NzbFolder}",
                line.Url, nzoIds.Count, nntp.Port, paths.Nzbs);
            return new DemoSession(app, nntp, line);
        }
        catch
        {
            await DemoSession.StopAsync(app, nntp);
            throw;
        }
    }

    // The top configuration layer, above the command line, so these replace any configured library,
    // account and provider; the UI shows them as set by demo mode.
    private static Dictionary<string, string?> Overrides(DemoPaths paths, int nntpPort, string password) => new()
    {
        ["NzbDav:DataDirectory"] = paths.Library,
        ["NzbDav:WebDav:User"] = User,
        ["NzbDav:WebDav:Password"] = password,
        // The same credentials log in to the web UI.
        ["NzbDav:Ui:AdminUser"] = User,
        ["NzbDav:Ui:AdminPassword"] = password,
        ["Usenet:Providers:0:Name"] = "demo-mock",
        ["Usenet:Providers:0:Host"] = "127.0.0.1",
        ["Usenet:Providers:0:Port"] = nntpPort.ToString(System.Globalization.CultureInfo.InvariantCulture),
        ["Usenet:Providers:0:UseTls"] = "false",
        ["Usenet:Providers:0:MaxConnections"] = "8",
    };

    /// <summary>
    /// Posts a sample to the mock, submits its NZB, and keeps the NZB in <see cref="DemoPaths.Nzbs"/>
    /// so it can be added again through the UI or the SABnzbd API (its articles stay on the mock).
    /// </summary>
    private static async Task<string> SubmitAsync(MockNntpServer nntp, JobSubmitter submitter, DemoSample sample, DemoPaths paths, CancellationToken cancellationToken)
    {
        var file = sample.Data is { } data
            ? nntp.Store.AddFile(sample.FileName, data, sample.SegmentSize)
            : nntp.Store.AddGeneratedFile(sample.FileName, sample.GeneratedSize, sample.SegmentSize);
        using var nzb = new MemoryStream();
        MockNzbWriter.Write(nzb, [file], sample.JobName, nntp.StartedAt);
        await File.WriteAllBytesAsync(Path.Combine(paths.Nzbs, sample.JobName + ".nzb"), nzb.ToArray(), cancellationToken);
        var outcome = await submitter.SubmitAsync(nzb.ToArray(), sample.JobName + ".nzb", sample.JobName, null, 0, null, InvalidNzb.Refuse, cancellationToken);
        return outcome.NzoId ?? throw new DemoFailedException($"The demo job {sample.JobName} was refused: {outcome.Error}");
    }

    private static Uri RootUrl(WebApplication app)
    {
        var addresses = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()?.Addresses ?? [];
        var address = addresses.FirstOrDefault(a => a.StartsWith("http://", StringComparison.OrdinalIgnoreCase)) ?? addresses.FirstOrDefault()
            ?? throw new DemoFailedException("The server reports no listening address.");
        var builder = new UriBuilder(address.Replace("://+", "://localhost").Replace("://*", "://localhost")) { Path = "/" };
        // A wildcard bind is no address to connect to; the machine itself is.
        if (builder.Host is "0.0.0.0" or "[::]" or "::")
            builder.Host = "localhost";
        return builder.Uri;
    }
}

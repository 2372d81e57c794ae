using System.Net.Http.Headers;
using System.Net.Sockets;
using System.Text;
using Microsoft.AspNetCore.Hosting;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.WebDav;
using NzbDav.Testing.Hosting;

namespace NzbDav.Server.Tests.WebDav;

/// <summary>The real host on 127.0.0.1:0 with the pattern opener, a known WebDAV password and an authenticated client.</summary>
public sealed class DavTestServer : IAsyncDisposable
{
    public const string User = "admin";
    public const string Password = "correct horse";
    public const string ApiKey = "dav-test-api-key";

    private readonly TestHost _host;

    private DavTestServer(TestHost host, PatternFileOpener opener, LogCapture logs, ResponseFlushWatch flushes)
    {
        _host = host;
        Address = host.Address;
        Opener = opener;
        Logs = logs;
        Flushes = flushes;
        Http = host.CreateClient(BasicHeader(User, Password));
        Anonymous = host.CreateClient();
    }

    public Uri Address { get; }

    public PatternFileOpener Opener { get; }

    public LogCapture Logs { get; }

    public ResponseFlushWatch Flushes { get; }

    /// <summary>Sends the right Basic credentials.</summary>
    public HttpClient Http { get; }

    /// <summary>Sends no credentials.</summary>
    public HttpClient Anonymous { get; }

    public IServiceProvider Services => _host.Services;

    public static AuthenticationHeaderValue BasicHeader(string user, string password) =>
        new("Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes(user + ":" + password)));

    /// <summary>Starts with <see cref="Password"/> configured unless <paramref name="configurePassword"/> is false.</summary>
    public static async Task<DavTestServer> StartAsync(string dataDirectory, CancellationToken cancellationToken, bool configurePassword = true, params string[] extra)
    {
        var builder = new TestHostBuilder(dataDirectory, ApiKey).HoldQueue(true);
        if (configurePassword)
            builder.WithWebDavPassword(Password);
        var opener = new PatternFileOpener();
        var logs = new LogCapture();
        var flushes = new ResponseFlushWatch();
        var host = await builder.WithArguments(extra).ConfigureServices(services =>
        {
            services.AddSingleton<IDavFileOpener>(opener);
            services.AddSingleton<ILoggerProvider>(logs);
            services.AddSingleton<IStartupFilter>(flushes);
        }).StartAsync(cancellationToken);
        return new DavTestServer(host, opener, logs, flushes);
    }

    /// <summary>Adds a Completed job with a folder under <c>/content/&lt;category&gt;/&lt;name&gt;</c> holding the given files.</summary>
    public async Task<(Job Job, IReadOnlyList<DavItem> Files)> SeedCompletedJobAsync(
        string category, string name, IReadOnlyList<(string Name, long Size)> files, CancellationToken cancellationToken)
    {
        var factory = Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        await using var context = await factory.CreateDbContextAsync(cancellationToken);
        var job = new Job
        {
            Id = Guid.NewGuid(),
            NzoId = "SABnzbd_nzo_" + Guid.NewGuid().ToString("N")[..8],
            Name = name,
            Category = category,
            Status = JobStatus.Completed,
            AddedAt = new DateTime(2026, 11, 1, 12, 0, 0, DateTimeKind.Utc),
            CompletedAt = new DateTime(2026, 11, 1, 12, 0, 5, 500, DateTimeKind.Utc),
            NzbHash = Guid.NewGuid().ToString("N"),
        };
        var folder = "/content/" + (category == "*" ? "default" : category) + "/" + name;
        var root = new DavItem { Id = Guid.NewGuid(), JobId = job.Id, Name = name, Path = folder, IsDirectory = true, Modified = job.CompletedAt.Value };
        var items = files.Select(f => new DavItem
        {
            Id = Guid.NewGuid(),
            JobId = job.Id,
            ParentId = root.Id,
            Name = f.Name,
            Path = folder + "/" + f.Name,
            Size = f.Size,
            Modified = job.CompletedAt.Value,
        }).ToList();
        context.Jobs.Add(job);
        context.JobNzbs.Add(new JobNzb { JobId = job.Id, GzipData = NzbCompression.Compress("<nzb/>"u8), Length = 6 });
        context.DavItems.Add(root);
        context.DavItems.AddRange(items);
        await context.SaveChangesAsync(cancellationToken);
        return (job, items);
    }

    /// <summary>Sends <paramref name="target"/> byte for byte (HttpClient would normalise dot segments) and returns the status code.</summary>
    public async Task<int> RawStatusAsync(string method, string target, CancellationToken cancellationToken)
    {
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(Address.Host, Address.Port, cancellationToken);
        await using var stream = tcp.GetStream();
        var auth = BasicHeader(User, Password).Parameter;
        var request = $"{method} {target} HTTP/1.1\r\nHost: {Address.Authority}\r\nAuthorization: Basic {auth}\r\nDepth: 0\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        await stream.WriteAsync(Encoding.ASCII.GetBytes(request), cancellationToken);
        using var reader = new StreamReader(stream, Encoding.ASCII);
        var statusLine = await reader.ReadLineAsync(cancellationToken) ?? "";
        var parts = statusLine.Split(' ');
        return parts.Length >= 2 && int.TryParse(parts[1], out var status) ? status : -1;
    }

    public async ValueTask DisposeAsync()
    {
        Http.Dispose();
        Anonymous.Dispose();
        await _host.DisposeAsync();
    }
}

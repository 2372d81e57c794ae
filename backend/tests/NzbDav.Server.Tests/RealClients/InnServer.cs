using System.Diagnostics;
using System.Net.Sockets;
using NzbDav.MockNntp.Posting;

namespace NzbDav.Server.Tests.RealClients;

/// <summary>
/// Debian's inn2 as configured by tools/inn2/setup.sh (which tools/test.sh runs): innd on
/// 127.0.0.1:119, which greets this host in transit mode and reads without a login after MODE
/// READER, and nnrpd on 127.0.0.2:5563 with implicit TLS (self-signed) and a required login. When
/// neither answers and the tests run as root, the set-up script is run here.
/// </summary>
internal static class InnServer
{
    public const string PlainHost = "127.0.0.1";
    public const int PlainPort = 119;
    public const string TlsHost = "127.0.0.2";
    public const int TlsPort = 5563;
    public const string User = "nzbdav";
    public const string Password = "nzbdav-test";
    public const string Newsgroup = "alt.binaries.nzbdav.test";

    private static readonly SemaphoreSlim SetUp = new(1, 1);

    public static NntpPosterOptions Poster => new()
    {
        Host = TlsHost, Port = TlsPort, UseTls = true, User = User, Password = Password, Newsgroup = Newsgroup,
    };

    /// <summary>The host's provider settings for inn's TLS reader port (index <paramref name="index"/> in the provider list).</summary>
    public static string[] ProviderArguments(int index, string? password = Password) =>
    [
        $"--Usenet:Providers:{index}:Name=inn", $"--Usenet:Providers:{index}:Host={TlsHost}",
        $"--Usenet:Providers:{index}:Port={TlsPort}", $"--Usenet:Providers:{index}:UseTls=true",
        $"--Usenet:Providers:{index}:AllowUntrustedCertificate=true",
        $"--Usenet:Providers:{index}:User={User}", $"--Usenet:Providers:{index}:Password={password}",
        $"--Usenet:Providers:{index}:MaxConnections=4",
    ];

    public static async Task EnsureRunningAsync(CancellationToken cancellationToken)
    {
        await SetUp.WaitAsync(cancellationToken);
        try
        {
            if (await AnswersAsync(TlsHost, TlsPort, cancellationToken) && await AnswersAsync(PlainHost, PlainPort, cancellationToken))
                return;
            var script = Path.Combine(RepositoryRoot(), "tools", "inn2", "setup.sh");
            if (!File.Exists("/usr/lib/news/bin/innd"))
                Assert.Fail("inn2 is not installed: tools/test.sh installs it (apt-get install inn2), then runs " + script);
            if (Environment.UserName != "root")
                Assert.Fail("inn2 is not running and only root can start it: run " + script + " as root");
            var run = await ExternalTool.RunAsync("bash", [script], cancellationToken);
            Assert.True(run.ExitCode == 0, "tools/inn2/setup.sh failed: " + run.Errors + System.Text.Encoding.UTF8.GetString(run.Output));
            Assert.True(await AnswersAsync(TlsHost, TlsPort, cancellationToken), $"inn2's TLS reader does not answer on {TlsHost}:{TlsPort} after set-up");
        }
        finally
        {
            SetUp.Release();
        }
    }

    private static async Task<bool> AnswersAsync(string host, int port, CancellationToken cancellationToken)
    {
        using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(TimeSpan.FromSeconds(5));
        try
        {
            await socket.ConnectAsync(host, port, deadline.Token);
            return true;
        }
        catch (Exception e) when (e is SocketException or OperationCanceledException && !cancellationToken.IsCancellationRequested)
        {
            return false;
        }
    }

    private static string RepositoryRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "NzbDav.sln")))
                return directory.FullName;
        }
        throw new UnreachableException("The test assembly is not inside the repository.");
    }
}

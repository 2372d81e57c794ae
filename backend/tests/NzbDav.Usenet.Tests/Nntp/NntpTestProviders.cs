using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Tests.Nntp;

internal static class NntpTestProviders
{
    public static UsenetProviderOptions For(int port, int depth = 4, TimeSpan? timeout = null) => new()
    {
        Name = "mock",
        Host = "127.0.0.1",
        Port = port,
        UseTls = false,
        PipelineDepth = depth,
        OperationTimeout = timeout ?? TimeSpan.FromSeconds(20),
    };

    public static NntpConnectionFactory Factory { get; } = new(NullLoggerFactory.Instance);

    public static async Task<INntpConnection> ConnectAsync(UsenetProviderOptions provider) =>
        await Factory.ConnectAsync(provider, TimeProvider.System, TestContext.Current.CancellationToken);

    /// <summary>A session whose deadlines (connect, watchdog, close) run on <paramref name="time"/>.</summary>
    public static async Task<INntpConnection> ConnectAsync(UsenetProviderOptions provider, TimeProvider time) =>
        await Factory.ConnectAsync(provider, time, TestContext.Current.CancellationToken);
}

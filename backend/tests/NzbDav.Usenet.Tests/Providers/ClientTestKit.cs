using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Time.Testing;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>
/// Three fake providers: primaries "fast" (priority 1) and "slow" (priority 5), and "backup"; with
/// <c>block</c>, a fourth, the block account "block".
/// </summary>
internal sealed class ClientTestKit : IAsyncDisposable
{
    public ClientTestKit(int maxConnections = 3, LimiterOptions? limits = null, int attempts = 2, int threshold = 3, bool block = false, int? blockAfterMs = null)
    {
        UsenetProviderOptions[] providers =
        [
            PoolTestKit.Provider("slow", maxConnections, priority: 5),
            PoolTestKit.Provider("backup", maxConnections, ProviderRole.BackupOnly, priority: 0),
            PoolTestKit.Provider("fast", maxConnections, priority: 1),
            .. block ? [PoolTestKit.Provider("block", maxConnections, ProviderRole.Block, priority: 0)] : Array.Empty<UsenetProviderOptions>(),
        ];
        Options = new UsenetOptions
        {
            Providers = providers,
            MaxAttemptsPerProvider = attempts,
            BreakerFailureThreshold = threshold,
            BreakerCooldown = TimeSpan.FromSeconds(30),
            BlockAccountAfterMs = blockAfterMs,
        };
        Limiter = new GlobalOperationLimiter(limits ?? LimiterOptions.CreateDefault(providers));
        Client = new UsenetClient(Options, Factory, Limiter, Time, NullLogger<UsenetClient>.Instance);
    }

    public FakeConnectionFactory Factory { get; } = new();

    public FakeTimeProvider Time { get; } = new();

    public UsenetOptions Options { get; }

    public GlobalOperationLimiter Limiter { get; }

    public UsenetClient Client { get; }

    public FakeProvider this[string name] => Factory[name];

    public static byte[] Article(string messageId) => System.Text.Encoding.UTF8.GetBytes($"payload of {messageId} ").Concat(new byte[300]).ToArray();

    /// <summary>Puts the article on the named providers.</summary>
    public void Post(string messageId, params string[] providers)
    {
        foreach (var provider in providers)
        {
            Factory[provider].Articles[messageId] = Article(messageId);
        }
    }

    public ProviderStatus Status(string name) => Client.GetProviderStatus().Single(s => s.Name == name);

    public ValueTask DisposeAsync() => Client.DisposeAsync();
}

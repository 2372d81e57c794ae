using System.Globalization;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Nzb;

namespace NzbDav.Tools.Testing.Soak;

/// <summary>
/// The soak's two providers of one post: a primary with stalls, drops and missing articles that can
/// be taken down, and a clean backup holding every article. Same seed, token and files, so the same
/// message-ids. Neither mock enforces a cap: each counts its real peak, which the soak compares
/// with the MaxConnections the host was given.
/// </summary>
internal sealed class SoakProviders : IAsyncDisposable
{
    private const string Token = "soak";
    private const int Seed = 16;

    private SoakProviders(MockNntpServer primary, MockNntpServer backup, MockNntpServer? block)
    {
        Primary = primary;
        Backup = backup;
        Block = block;
    }

    public MockNntpServer Primary { get; }

    public MockNntpServer Backup { get; }

    /// <summary>The block account (every article, clean), when the soak has one.</summary>
    public MockNntpServer? Block { get; }

    public static async Task<SoakProviders> StartAsync(SoakOptions options, CancellationToken cancellationToken)
    {
        var faults = new MockBehavior
        {
            Latency = TimeSpan.FromMilliseconds(options.LatencyMs),
            Jitter = TimeSpan.FromMilliseconds(options.JitterMs),
            StallFraction = options.StallFraction,
            StallDuration = TimeSpan.FromSeconds(options.StallSeconds),
            DropFraction = options.DropFraction,
            MissingFraction = options.MissingFraction,
        };
        var clean = new MockBehavior { Latency = faults.Latency, Jitter = faults.Jitter };
        var primary = new MockNntpServer(new MockNntpOptions { Seed = Seed, MessageIdToken = Token, Behavior = faults });
        var backup = new MockNntpServer(new MockNntpOptions { Seed = Seed, MessageIdToken = Token, Behavior = clean });
        var block = options.BlockConnections > 0
            ? new MockNntpServer(new MockNntpOptions { Seed = Seed, MessageIdToken = Token, Behavior = new MockBehavior { Latency = faults.Latency, Jitter = faults.Jitter } })
            : null;
        var providers = new SoakProviders(primary, backup, block);
        try
        {
            await primary.StartAsync(cancellationToken);
            await backup.StartAsync(cancellationToken);
            if (block is not null)
                await block.StartAsync(cancellationToken);
            return providers;
        }
        catch
        {
            await providers.DisposeAsync();
            throw;
        }
    }

    /// <summary>The host's provider settings: the primary first, the backup asked only after it failed.</summary>
    public IReadOnlyList<string> HostArguments(SoakOptions options) =>
    [
        .. Provider(0, "primary", Primary.Port, options.PrimaryConnections, "Primary"),
        .. Provider(1, "backup", Backup.Port, options.BackupConnections, "BackupOnly"),
        .. Block is null ? [] : Provider(2, "block", Block.Port, options.BlockConnections, "Block"),
    ];

    /// <summary>Posts the same generated files to both providers; returns an NZB of them and their true bytes by name.</summary>
    public (byte[] Nzb, IReadOnlyDictionary<string, ExpectedBytesReader> Expected) Post(string title, IEnumerable<string> names, long size, int segmentSize)
    {
        var files = new List<MockFile>();
        var expected = new Dictionary<string, ExpectedBytesReader>(StringComparer.Ordinal);
        foreach (var name in names)
        {
            var file = Primary.Store.AddGeneratedFile(name, size, segmentSize);
            var copy = Backup.Store.AddGeneratedFile(name, size, segmentSize);
            Block?.Store.AddGeneratedFile(name, size, segmentSize);
            if (!file.Articles.Select(a => a.MessageId).SequenceEqual(copy.Articles.Select(a => a.MessageId)))
                throw new InvalidOperationException($"The backup's copy of {name} has other message-ids than the primary's.");
            files.Add(file);
            expected[name] = copy.ReadExpected;
        }

        using var nzb = new MemoryStream();
        MockNzbWriter.Write(nzb, files, title, Primary.StartedAt);
        return (nzb.ToArray(), expected);
    }

    public async ValueTask DisposeAsync()
    {
        await Primary.DisposeAsync();
        await Backup.DisposeAsync();
        if (Block is not null)
            await Block.DisposeAsync();
    }

    private static string[] Provider(int index, string name, int port, int connections, string role)
    {
        var prefix = string.Create(CultureInfo.InvariantCulture, $"--Usenet:Providers:{index}:");
        return
        [
            prefix + "Name=" + name,
            prefix + "Host=127.0.0.1",
            prefix + "Port=" + port.ToString(CultureInfo.InvariantCulture),
            prefix + "UseTls=false",
            prefix + "MaxConnections=" + connections.ToString(CultureInfo.InvariantCulture),
            prefix + "Role=" + role,
            prefix + "Priority=" + index.ToString(CultureInfo.InvariantCulture),
        ];
    }
}

using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Nzb;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Providers;

namespace NzbDav.Tools.Testing;

/// <summary>
/// The mock NNTP server started in-process for <c>--mock-server</c>: one generated file, an NZB of
/// it in a temporary file, and a provider pointing at it whose MaxConnections the server enforces
/// (a run that exceeded it would see 502s and show them as rejected connections).
/// </summary>
internal sealed class MockBenchmarkServer : IAsyncDisposable
{
    /// <summary>The generated file's name in the NZB.</summary>
    internal const string FileName = "mock.bin";

    private readonly MockNntpServer _server;
    private readonly FullNzbTesterOptions _options;

    private MockBenchmarkServer(MockNntpServer server, FullNzbTesterOptions options, string nzbPath)
    {
        _server = server;
        _options = options;
        NzbPath = nzbPath;
    }

    public string NzbPath { get; }

    /// <summary>Message-ids of the file only the health sweep asks about (empty without <c>--sweep-segments</c>).</summary>
    public IReadOnlyList<string> SweepIds { get; private set; } = [];

    public UsenetProviderOptions Provider => new()
    {
        Name = "mock",
        Host = "127.0.0.1",
        Port = _server.Port,
        UseTls = false,
        MaxConnections = _options.Connections,
    };

    public static async Task<MockBenchmarkServer> StartAsync(FullNzbTesterOptions options, CancellationToken cancellationToken)
    {
        var behavior = new MockBehavior
        {
            Latency = TimeSpan.FromMilliseconds(options.LatencyMs),
            Jitter = TimeSpan.FromMilliseconds(options.JitterMs),
            StallFraction = options.StallFraction,
        };
        var server = new MockNntpServer(new MockNntpOptions { MaxConnections = options.Connections, Behavior = behavior });
        try
        {
            server.Store.AddGeneratedFile(FileName, options.SizeMiB * 1024L * 1024L, options.SegmentSizeKiB * 1024);
            await server.StartAsync(cancellationToken);
            // A private folder, so the NZB keeps the plain name the report shows.
            var folder = Directory.CreateTempSubdirectory("nzbdav-mock-").FullName;
            var nzbPath = Path.Combine(folder, "mock.nzb");
            server.WriteNzb(nzbPath, "mock");
            var benchmark = new MockBenchmarkServer(server, options, nzbPath);
            if (options.SweepSegments > 0)
            {
                // Posted after the NZB was written: only the sweep knows these articles.
                var swept = server.Store.AddGeneratedFile("sweep.bin", options.SweepSegments * 512L, 512);
                benchmark.SweepIds = swept.Articles.Select(static a => a.MessageId).ToArray();
            }
            return benchmark;
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }
    }

    /// <summary>The true bytes of an NZB file of this server, found by name.</summary>
    public ExpectedBytesReader? ExpectedFor(NzbFile file)
    {
        MockFile? mock = _server.Store.Files.FirstOrDefault(f => f.Name == file.FileName);
        return mock is null ? null : mock.ReadExpected;
    }

    /// <summary>The true bytes of this server's file named <paramref name="fileName"/>.</summary>
    public ExpectedBytesReader? ExpectedFor(string fileName)
    {
        MockFile? mock = _server.Store.Files.FirstOrDefault(f => f.Name == fileName);
        return mock is null ? null : mock.ReadExpected;
    }

    /// <summary>
    /// Posts <paramref name="count"/> more generated files of <paramref name="size"/> bytes, named
    /// <c>{prefix}-001.bin</c>…, and returns an NZB of those files only (the first NZB is unchanged).
    /// </summary>
    public byte[] AddFiles(string prefix, int count, long size)
    {
        var files = new List<MockFile>(count);
        for (var i = 1; i <= count; i++)
        {
            files.Add(_server.Store.AddGeneratedFile($"{prefix}-{i:D3}.bin", size, _options.SegmentSizeKiB * 1024));
        }

        using var nzb = new MemoryStream();
        MockNzbWriter.Write(nzb, files, prefix, _server.StartedAt);
        return nzb.ToArray();
    }

    /// <summary>Posts <paramref name="files"/> (real bytes, in this run's segment size) and returns an NZB of those files only.</summary>
    public byte[] AddFiles(string title, IReadOnlyList<(string Name, byte[] Bytes)> files)
    {
        var posted = files.Select(f => _server.Store.AddFile(f.Name, f.Bytes, _options.SegmentSizeKiB * 1024)).ToList();
        using var nzb = new MemoryStream();
        MockNzbWriter.Write(nzb, posted, title, _server.StartedAt);
        return nzb.ToArray();
    }

    /// <summary>Makes the parts (1-based) of <paramref name="fileName"/> answer 430, as a takedown does; answers how many it has.</summary>
    public int Lose(string fileName, IEnumerable<int> parts)
    {
        var file = _server.Store.Files.First(f => f.Name == fileName);
        foreach (var part in parts)
            _server.Store.SetMissing(file, part, part, missing: true);
        return file.Articles.Count;
    }

    /// <summary>Articles of <paramref name="fileName"/>.</summary>
    public int Parts(string fileName) => _server.Store.Files.First(f => f.Name == fileName).Articles.Count;

    /// <summary>Connections the mock server has open right now.</summary>
    public int CurrentConnections => _server.Stats.CurrentConnections;

    public MockServerReport Report() => new(
        _options.SizeMiB, _options.LatencyMs, _options.JitterMs, _options.Connections, _options.StallFraction, _options.SegmentSizeKiB,
        _server.Stats.PeakConnections, _server.Stats.RejectedConnections, _server.Stats.BytesSent);

    public async ValueTask DisposeAsync()
    {
        await _server.DisposeAsync();
        Directory.Delete(Path.GetDirectoryName(NzbPath)!, recursive: true);
    }
}

using System.Net;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.Traffic;

/// <summary>A block account under a real player: it sends only the articles the primary lacks, and nothing when the primary has them all.</summary>
public sealed class BlockAccountServerTests(ITestOutputHelper output)
{
    [Fact]
    public async Task A_block_account_sends_only_what_the_primary_lacks_and_nothing_when_it_lacks_nothing()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        var token = "block-" + Guid.NewGuid().ToString("N");
        await using var primary = new Twin(token);
        await primary.InitializeAsync();
        await using var block = new Twin(token);
        await block.InitializeAsync();
        const long Size = 96L * 1024 * 1024;
        const int Segment = 128 * 1024;
        var whole = primary.Store.AddGeneratedFile("Whole.2026.mkv", Size, Segment);
        block.Store.AddGeneratedFile("Whole.2026.mkv", Size, Segment);
        var holed = primary.Store.AddGeneratedFile("Holed.2026.mkv", Size, Segment);
        block.Store.AddGeneratedFile("Holed.2026.mkv", Size, Segment);
        // 1 % of the second film's articles are gone from the primary (never its first, which the import reads).
        var gone = holed.Articles.Where(a => a.Number % 100 == 50).ToList();
        foreach (var article in gone)
        {
            primary.Store.SetMissing(article, true);
        }

        await using var host = await IngestionHost.StartAsync(data.Path, primary.Port, ct, null,
            "--Usenet:Providers:1:Name=block", "--Usenet:Providers:1:Host=127.0.0.1", "--Usenet:Providers:1:Port=" + block.Port,
            "--Usenet:Providers:1:UseTls=false", "--Usenet:Providers:1:MaxConnections=4", "--Usenet:Providers:1:Role=Block",
            "--Health:ImportCheck=false");

        var wholeFolder = (await host.AddAndWaitAsync(primary.Nzb("Whole.2026", whole), "Whole.2026.nzb", ct)).GetProperty("name").GetString()!;
        await PlayAsync(host, wholeFolder, whole, ct);
        Assert.Equal(0, block.Server.Stats.BytesSent);
        Assert.Equal(0, block.Server.Stats.TotalConnections);

        var holedFolder = (await host.AddAndWaitAsync(primary.Nzb("Holed.2026", holed), "Holed.2026.nzb", ct)).GetProperty("name").GetString()!;
        await PlayAsync(host, holedFolder, holed, ct);
        var sent = block.Server.Stats.BytesSent;
        var missingSize = gone.Sum(a => a.EncodedSize);
        output.WriteLine($"block account sent {sent:N0} bytes in {block.Server.Stats.GetCommandCount(MockCommandKind.Body)} BODYs for {gone.Count} missing articles of {missingSize:N0} bytes: {(double)sent / missingSize:F3}x");
        Assert.Equal(gone.Count, block.Server.Stats.GetCommandCount(MockCommandKind.Body));
        Assert.InRange(sent, missingSize, (long)(missingSize * 1.1));
    }

    private static async Task PlayAsync(IngestionHost host, string folder, MockFile file, CancellationToken ct)
    {
        using var played = await host.GetAsync(folder, file.Name, ct);
        Assert.Equal(HttpStatusCode.OK, played.StatusCode);
        Assert.Equal(file.ReadExpected(0, (int)file.Size).ToArray(), await played.Content.ReadAsByteArrayAsync(ct));
    }

    private sealed class Twin(string token) : MockProviderFixture(new MockNntpOptions { Seed = 29, MessageIdToken = token });
}

using System.Security.Cryptography;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.WebDav;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.Ingestion;

/// <summary>Real archives posted obfuscated with a real PAR2 set, ingested over the SABnzbd API and read back over WebDAV.</summary>
public sealed class ArchiveIngestionTests(MockProviderFixture provider)
{
    public static TheoryData<string, string[]> StoredArchives => new()
    {
        { "RarFourStored", ["Rar.none.rar"] },
        { "RarFiveStored", ["Rar5.none.rar"] },
        { "SevenZipCopy", ["7Zip.Copy.7z"] },
    };

    [Theory]
    [MemberData(nameof(StoredArchives))]
    public async Task Stored_archive_entries_stream_back_byte_exact(string job, string[] archives)
    {
        var ct = TestContext.Current.CancellationToken;
        await using var run = await RunAsync(job, archives, ct);

        Assert.Equal("Completed", run.Slot.GetProperty("status").GetString());
        await AssertFilesAsync(run.Host, job, ArchiveTestData.ThreeFiles, ct);
        var listing = await DavHttp.MultistatusAsync(run.Host.Dav, "/content/tv/" + job + "/", "1", null, ct);
        Assert.Contains(listing.Keys, href => href.TrimEnd('/').EndsWith("/" + job + "/exe", StringComparison.Ordinal));
        Assert.Contains(listing.Keys, href => href.TrimEnd('/').EndsWith("/" + job + "/jpg", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Multi_volume_rar5_streams_across_volumes_and_serves_exact_ranges()
    {
        var ct = TestContext.Current.CancellationToken;
        const string job = "RarFiveMulti";
        await using var run = await RunAsync(job, ["Rar5.multi.none.part01.rar", "Rar5.multi.none.part02.rar", "Rar5.multi.none.part03.rar"], ct);

        Assert.Equal("Completed", run.Slot.GetProperty("status").GetString());
        Assert.Equal(300_000, run.Slot.GetProperty("bytes").GetInt64());
        var whole = await AssertFilesAsync(run.Host, job, ArchiveTestData.StoredBin, ct);

        // A range in the middle that crosses the volume boundaries.
        using var ranged = await run.Host.GetAsync(job, "stored.bin", ct, "bytes=90000-210009");
        Assert.Equal(206, (int)ranged.StatusCode);
        Assert.Equal("bytes 90000-210009/300000", ranged.Content.Headers.ContentRange!.ToString());
        Assert.Equal(whole["stored.bin"].AsSpan(90_000, 120_010).ToArray(), await ranged.Content.ReadAsByteArrayAsync(ct));
    }

    [Fact]
    public async Task Compressed_rar_fails_the_job_with_the_reason()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var run = await RunAsync("RarFiveCompressed", ["Rar5.rar"], ct);

        Assert.Equal("Failed", run.Slot.GetProperty("status").GetString());
        Assert.Contains("compressed", run.Slot.GetProperty("fail_message").GetString());
    }

    private static async Task<Dictionary<string, byte[]>> AssertFilesAsync(IngestionHost host, string job, IReadOnlyDictionary<string, string> expected, CancellationToken cancellationToken)
    {
        var contents = new Dictionary<string, byte[]>();
        foreach (var (path, sha256) in expected)
        {
            using var response = await host.GetAsync(job, path, cancellationToken);
            Assert.Equal(200, (int)response.StatusCode);
            var bytes = await response.Content.ReadAsByteArrayAsync(cancellationToken);
            Assert.Equal(sha256, Convert.ToHexStringLower(SHA256.HashData(bytes)));
            contents[path] = bytes;
        }

        return contents;
    }

    private async Task<IngestionRun> RunAsync(string job, string[] archives, CancellationToken cancellationToken)
    {
        var data = new TempDirectory();
        var work = new TempDirectory();
        var nzb = await ObfuscatedArchivePost.PostAsync(provider.Server, work.Path, archives.Select(ArchiveTestData.Archive).ToArray(), cancellationToken);
        var host = await IngestionHost.StartAsync(data.Path, provider.Port, cancellationToken);
        var slot = await host.AddAndWaitAsync(nzb, job + ".nzb", cancellationToken);
        return new IngestionRun(host, slot, [data, work]);
    }
}

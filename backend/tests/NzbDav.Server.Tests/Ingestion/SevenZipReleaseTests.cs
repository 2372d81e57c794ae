using System.Xml.Linq;
using NzbDav.Archives.Tests.SevenZip;
using NzbDav.Server.Tests.Data;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.Ingestion;

/// <summary>
/// 7z releases made by Debian's 7-Zip, posted obfuscated with a PAR2 set to the mock provider,
/// added over the SABnzbd API and read back over WebDAV: split volumes, AES-encrypted entries with
/// the password in the NZB, encrypted headers, and the refusals without the right password.
/// </summary>
public sealed class SevenZipReleaseTests(ITestOutputHelper output, MockProviderFixture provider)
{
    private const string Password = "7z-Ingest-pässword";
    private const string Video = "Show.S01E01.mkv";

    [Fact]
    public async Task Split_stored_7z_streams_every_file_and_ranges_across_volumes()
    {
        var ct = TestContext.Current.CancellationToken;
        var files = SevenZipTool.SampleFiles(seed: 21);
        await using var run = await PostToolArchiveAsync("Split", files, ["-mx0", "-v64k"], nzbPassword: null, ct);

        Assert.Equal("Completed", run.Slot.GetProperty("status").GetString());
        Assert.True(run.Volumes >= 3, run.Volumes + " volumes");
        await AssertFilesAsync(run.Host, "Split", files, ct);
        await AssertRangeAsync(run.Host, "Split", Video, files[Video], 60_000, 80_100, ct);
    }

    [Theory]
    [InlineData("-mhe=off")]
    [InlineData("-mhe=on")]
    public async Task Aes_7z_streams_with_the_password_from_the_nzb_meta(string headerSwitch)
    {
        var ct = TestContext.Current.CancellationToken;
        var files = SevenZipTool.SampleFiles(seed: 22);
        await using var run = await PostToolArchiveAsync("Locked", files, ["-mx0", "-p" + Password, headerSwitch, "-v64k"], Password, ct);

        Assert.Equal("Completed", run.Slot.GetProperty("status").GetString());
        await AssertFilesAsync(run.Host, "Locked", files, ct);
        await AssertRangeAsync(run.Host, "Locked", Video, files[Video], 65_530, 131_090, ct);
    }

    [Theory]
    [InlineData("-mhe=off", null, "no password")]
    [InlineData("-mhe=off", "guess", "wrong password")]
    [InlineData("-mhe=on", null, "no password")]
    [InlineData("-mhe=on", "guess", "wrong password")]
    public async Task Aes_7z_without_the_right_password_fails_with_the_reason(string headerSwitch, string? nzbPassword, string reason)
    {
        var ct = TestContext.Current.CancellationToken;
        await using var run = await PostToolArchiveAsync("Locked", SevenZipTool.SampleFiles(seed: 23), ["-mx0", "-p" + Password, headerSwitch], nzbPassword, ct);

        Assert.Equal("Failed", run.Slot.GetProperty("status").GetString());
        var message = run.Slot.GetProperty("fail_message").GetString();
        output.WriteLine(message ?? "(no fail_message)");
        Assert.Contains(reason, message, StringComparison.Ordinal);
        Assert.Contains("7z", message, StringComparison.Ordinal);
        using var response = await run.Host.GetAsync("Locked", Video, ct);
        Assert.Equal(404, (int)response.StatusCode);
    }

    [Fact]
    public async Task Files_inside_one_aes_folder_stream_from_their_offset_in_it()
    {
        var ct = TestContext.Current.CancellationToken;
        var random = new Random(24);
        (string Name, byte[] Data) File(string name, int length)
        {
            var data = new byte[length];
            random.NextBytes(data);
            return (name, data);
        }

        (string Name, byte[] Data)[] files = [File("a.nfo", 7), File(Video, 90_003), File("Subs/b.srt", 4_099)];
        var archive = SevenZipAesTestWriter.Write(files, Password);
        using var source = new TempDirectory();
        var path = Path.Combine(source.Path, "Folder.7z");
        await System.IO.File.WriteAllBytesAsync(path, archive, ct);
        await using var run = await PostAsync("Folder", [path], Password, ct);

        Assert.Equal("Completed", run.Slot.GetProperty("status").GetString());
        await AssertFilesAsync(run.Host, "Folder", files.ToDictionary(f => f.Name, f => f.Data), ct);
        await AssertRangeAsync(run.Host, "Folder", Video, files[1].Data, 19_999, 20_016, ct);
        await AssertRangeAsync(run.Host, "Folder", "Subs/b.srt", files[2].Data, 4_000, 4_098, ct);
    }

    private static async Task AssertFilesAsync(IngestionHost host, string job, IReadOnlyDictionary<string, byte[]> files, CancellationToken cancellationToken)
    {
        foreach (var (name, expected) in files)
        {
            using var response = await host.GetAsync(job, name, cancellationToken);
            Assert.Equal(200, (int)response.StatusCode);
            var served = await response.Content.ReadAsByteArrayAsync(cancellationToken);
            Assert.True(expected.AsSpan().SequenceEqual(served), name);
        }
    }

    private static async Task AssertRangeAsync(IngestionHost host, string job, string name, byte[] expected, int first, int last, CancellationToken cancellationToken)
    {
        using var response = await host.GetAsync(job, name, cancellationToken, $"bytes={first}-{last}");
        Assert.Equal(206, (int)response.StatusCode);
        Assert.Equal($"bytes {first}-{last}/{expected.Length}", response.Content.Headers.ContentRange!.ToString());
        Assert.Equal(expected.AsSpan(first, last - first + 1).ToArray(), await response.Content.ReadAsByteArrayAsync(cancellationToken));
    }

    private async Task<SevenZipRun> PostToolArchiveAsync(string job, IReadOnlyDictionary<string, byte[]> files, string[] switches, string? nzbPassword, CancellationToken cancellationToken)
    {
        using var source = new TempDirectory();
        var volumes = await SevenZipTool.CreateAsync(source.Path, job + ".7z", files, switches, cancellationToken);
        return await PostAsync(job, volumes, nzbPassword, cancellationToken);
    }

    /// <summary>Posts the volumes obfuscated with PAR2, puts the password (if any) in the NZB's head, and waits for the job's history slot.</summary>
    private async Task<SevenZipRun> PostAsync(string job, string[] volumes, string? nzbPassword, CancellationToken cancellationToken)
    {
        var data = new TempDirectory();
        var work = new TempDirectory();
        var nzb = await ObfuscatedArchivePost.PostAsync(provider.Server, work.Path, volumes, cancellationToken);
        if (nzbPassword is not null)
            nzb = WithPasswordMeta(nzb, nzbPassword);
        var host = await IngestionHost.StartAsync(data.Path, provider.Port, cancellationToken);
        var slot = await host.AddAndWaitAsync(nzb, job + ".nzb", cancellationToken);
        return new SevenZipRun(new IngestionRun(host, slot, [data, work]), volumes.Length);
    }

    private static byte[] WithPasswordMeta(byte[] nzb, string password)
    {
        var document = XDocument.Load(new MemoryStream(nzb));
        var ns = document.Root!.Name.Namespace;
        document.Root.Element(ns + "head")!.Add(new XElement(ns + "meta", new XAttribute("type", "password"), password));
        using var output = new MemoryStream();
        document.Save(output);
        return output.ToArray();
    }

    private sealed record SevenZipRun(IngestionRun Run, int Volumes) : IAsyncDisposable
    {
        public IngestionHost Host => Run.Host;

        public System.Text.Json.JsonElement Slot => Run.Slot;

        public ValueTask DisposeAsync() => Run.DisposeAsync();
    }
}

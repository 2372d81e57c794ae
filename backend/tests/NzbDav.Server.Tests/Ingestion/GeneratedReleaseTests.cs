using System.Diagnostics;
using System.Security.Cryptography;
using NzbDav.Archives.Tests.Rar;
using NzbDav.MockNntp;
using NzbDav.Server.Tests.Data;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.Ingestion;

/// <summary>Stored RAR releases: many RAR5 volumes and AES-encrypted ones made by the test writer, and a real AES-encrypted RAR4 entry.</summary>
public sealed class GeneratedReleaseTests(ITestOutputHelper output)
{
    private const string Video = "Big.Release.S01E01.1080p.WEB.mkv";

    [Fact]
    [SlowTest("fifty volumes ingested over a 50 ms provider")]
    public async Task Fifty_volume_obfuscated_release_ingests_over_a_50ms_provider()
    {
        var ct = TestContext.Current.CancellationToken;
        var file = TestFile.Random(Video, 50 * 60_000, 7);
        var volumes = new Rar5TestWriter { DataBytesPerVolume = 60_000 }.Write(file);
        Assert.Equal(50, volumes.Length);

        await using var run = await PostAsync(volumes, "Big Release", TimeSpan.FromMilliseconds(50), ct, output);
        await run.Host.ConnectLikeSonarrAsync(ct);
        // The first job after start also pays for JIT compilation and first EF queries; the second is
        // what every later grab costs. Both are reported; neither is asserted (no timed tests).
        var started = Stopwatch.GetTimestamp();
        var slot = await run.Host.AddAndWaitAsync(run.Nzb, "Big Release.nzb", ct);
        var first = Stopwatch.GetElapsedTime(started);
        started = Stopwatch.GetTimestamp();
        var again = await run.Host.AddAndWaitAsync(run.Nzb, "Big Release.nzb", ct);
        var second = Stopwatch.GetElapsedTime(started);
        output.WriteLine($"50-volume obfuscated stored RAR5 release + PAR2, 50 ms provider latency, addfile → history Completed: " +
            $"first job after start {first.TotalMilliseconds:F0} ms, next job {second.TotalMilliseconds:F0} ms");

        Assert.Equal("Completed", again.GetProperty("status").GetString());
        await AssertVideoAsync(run.Host, "Big Release (2)", file.Data, ct);
        Assert.Equal("Completed", slot.GetProperty("status").GetString());
        await AssertVideoAsync(run.Host, "Big Release", file.Data, ct);
    }

    [Fact]
    public async Task Encrypted_release_streams_with_the_password_from_the_nzb_name()
    {
        var ct = TestContext.Current.CancellationToken;
        var file = TestFile.Random(Video, 150_001, 8);
        var volumes = new Rar5TestWriter { Password = "s3cret", DataBytesPerVolume = 70_000 }.Write(file);

        await using var run = await PostAsync(volumes, "Locked", TimeSpan.Zero, ct);
        var slot = await run.Host.AddAndWaitAsync(run.Nzb, "Locked{{s3cret}}.nzb", ct);

        Assert.Equal("Completed", slot.GetProperty("status").GetString());
        var whole = await AssertVideoAsync(run.Host, "Locked", file.Data, ct);
        using var ranged = await run.Host.GetAsync("Locked", Video, ct, "bytes=69990-140017");
        Assert.Equal(206, (int)ranged.StatusCode);
        Assert.Equal(whole.AsSpan(69_990, 70_028).ToArray(), await ranged.Content.ReadAsByteArrayAsync(ct));
    }

    [Fact]
    public async Task Real_rar4_aes_stored_entry_streams_with_the_password_from_the_nzb_name()
    {
        var ct = TestContext.Current.CancellationToken;

        await using var run = await PostAsync([Rar4AesVector.Archive()], "Andn", TimeSpan.Zero, ct);
        var slot = await run.Host.AddAndWaitAsync(run.Nzb, "Andn{{" + Rar4AesVector.Password + "}}.nzb", ct);

        Assert.Equal("Completed", slot.GetProperty("status").GetString());
        using var response = await run.Host.GetAsync("Andn", Rar4AesVector.EntryName, ct);
        Assert.Equal(200, (int)response.StatusCode);
        Assert.Equal(Rar4AesVector.Plaintext, await response.Content.ReadAsByteArrayAsync(ct));
    }

    [Theory]
    [InlineData("NoPassword.nzb", "no password")]
    [InlineData("Wrong{{guess}}.nzb", "wrong password")]
    public async Task Encrypted_release_without_the_right_password_fails_with_the_reason(string nzbName, string reason)
    {
        var ct = TestContext.Current.CancellationToken;
        var volumes = new Rar5TestWriter { Password = "s3cret" }.Write(TestFile.Random(Video, 30_000, 9));

        await using var run = await PostAsync(volumes, "Locked", TimeSpan.Zero, ct);
        var slot = await run.Host.AddAndWaitAsync(run.Nzb, nzbName, ct);

        Assert.Equal("Failed", slot.GetProperty("status").GetString());
        Assert.Contains(reason, slot.GetProperty("fail_message").GetString());
    }

    private static async Task<byte[]> AssertVideoAsync(IngestionHost host, string job, byte[] expected, CancellationToken cancellationToken)
    {
        using var response = await host.GetAsync(job, Video, cancellationToken);
        Assert.Equal(200, (int)response.StatusCode);
        var bytes = await response.Content.ReadAsByteArrayAsync(cancellationToken);
        Assert.Equal(Convert.ToHexString(SHA256.HashData(expected)), Convert.ToHexString(SHA256.HashData(bytes)));
        return bytes;
    }

    private static async Task<GeneratedRun> PostAsync(byte[][] volumes, string baseName, TimeSpan latency, CancellationToken cancellationToken, ITestOutputHelper? output = null)
    {
        var data = new TempDirectory();
        var source = new TempDirectory();
        var work = new TempDirectory();
        var paths = new List<string>();
        for (var i = 0; i < volumes.Length; i++)
        {
            var name = volumes.Length == 1 ? baseName + ".rar" : $"{baseName}.part{i + 1:00}.rar";
            var path = Path.Combine(source.Path, name);
            await File.WriteAllBytesAsync(path, volumes[i], cancellationToken);
            paths.Add(path);
        }

        var nntp = new MockNntpServer();
        await nntp.StartAsync(cancellationToken);
        var nzb = await ObfuscatedArchivePost.PostAsync(nntp, work.Path, paths, cancellationToken);
        nntp.Behavior.Latency = latency;
        var host = await IngestionHost.StartAsync(data.Path, nntp.Port, cancellationToken, output);
        return new GeneratedRun(host, nntp, nzb, [data, source, work]);
    }

    private sealed record GeneratedRun(IngestionHost Host, MockNntpServer Nntp, byte[] Nzb, IReadOnlyList<IDisposable> Temporaries) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            await Host.DisposeAsync();
            await Nntp.DisposeAsync();
            foreach (var temporary in Temporaries)
                temporary.Dispose();
        }
    }
}

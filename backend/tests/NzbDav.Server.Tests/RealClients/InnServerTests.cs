using System.Net;
using System.Security.Cryptography;
using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Posting;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;
using NzbDav.Tools.Demo;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Server.Tests.RealClients;

/// <summary>
/// The product against a real NNTP server it did not write (Debian's inn2, see <see cref="InnServer"/>):
/// real archives and a real video posted as yEnc multipart articles, ingested from the NZB built of
/// the posted message-ids, and read back over WebDAV byte for byte; failover to a backup for what
/// inn does not have; the import health check's STATs; TLS and login required.
/// </summary>
[SlowTest("reads from inn2, which only the full suite sets up")]
public sealed class InnServerTests
{
    private const int SegmentSize = 48 * 1024;
    // Small articles for the (small) sample video, so its seeks cross many of them.
    private const int VideoSegmentSize = 16 * 1024;
    private const string Poster = "NzbDav Tests <tests@nzbdav.test>";

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Archives_and_a_video_posted_to_inn_stream_back_byte_exact_over_TLS_with_a_login()
    {
        await InnServer.EnsureRunningAsync(Ct);
        using var work = new TempDirectory();
        var videoPath = Path.Combine(work.Path, "Inn.Video.S01E01.mkv");
        try
        {
            await SampleVideo.CreateAsync(videoPath, 8, Ct);
        }
        catch (SampleVideoException ex)
        {
            Assert.Fail(ex.Message + " (tools/test.sh installs ffmpeg)");
        }
        var video = await File.ReadAllBytesAsync(videoPath, Ct);
        var volumes = new[] { "Rar5.multi.none.part01.rar", "Rar5.multi.none.part02.rar", "Rar5.multi.none.part03.rar" };

        var rarNzb = await PostAsync("Inn.Rar5.Multi", [.. volumes.Select(v => (v, File.ReadAllBytes(ArchiveTestData.Archive(v))))]);
        var sevenZipNzb = await PostAsync("Inn.SevenZip", [("7Zip.Copy.7z", File.ReadAllBytes(ArchiveTestData.Archive("7Zip.Copy.7z")))]);
        var videoNzb = await PostAsync("Inn.Video.S01E01", [("Inn.Video.S01E01.mkv", video)], VideoSegmentSize);

        await using var host = await IngestionHost.StartAsync(work.Path, null, NullLoggerProvider.Instance, Ct, InnServer.ProviderArguments(0));
        await AssertCompletedAsync(host, rarNzb, "Inn.Rar5.Multi");
        await AssertCompletedAsync(host, sevenZipNzb, "Inn.SevenZip");
        await AssertCompletedAsync(host, videoNzb, "Inn.Video.S01E01");

        await AssertSha256Async(host, "Inn.Rar5.Multi", ArchiveTestData.StoredBin);
        await AssertSha256Async(host, "Inn.SevenZip", ArchiveTestData.ThreeFiles);
        await AssertSha256Async(host, "Inn.Video.S01E01", new Dictionary<string, string> { ["Inn.Video.S01E01.mkv"] = Sha256(video) });

        // Seeks: ranges at the start, across article boundaries, in the middle and at the end, in a scrubbing order.
        var length = video.Length;
        Assert.True(length > 8 * VideoSegmentSize, $"the sample video is only {length} bytes");
        foreach (var (from, to) in new[] { (length / 2, length - 1), (0, 1023), (VideoSegmentSize - 10, 3 * VideoSegmentSize + 10), (length - 5000, length - 1), (length / 3, length / 3) })
        {
            using var ranged = await host.GetAsync("Inn.Video.S01E01", "Inn.Video.S01E01.mkv", Ct, $"bytes={from}-{to}");
            Assert.Equal(HttpStatusCode.PartialContent, ranged.StatusCode);
            Assert.Equal(video.AsSpan(from, to - from + 1).ToArray(), await ranged.Content.ReadAsByteArrayAsync(Ct));
        }
        using var crossing = await host.GetAsync("Inn.Rar5.Multi", "stored.bin", Ct, "bytes=90000-210009");
        Assert.Equal(HttpStatusCode.PartialContent, crossing.StatusCode);
        Assert.Equal(120_010, (await crossing.Content.ReadAsByteArrayAsync(Ct)).Length);
    }

    [Fact]
    public async Task Articles_inn_does_not_have_answer_430_and_come_from_the_backup_mock()
    {
        await InnServer.EnsureRunningAsync(Ct);
        using var work = new TempDirectory();
        var data = RandomNumberGenerator.GetBytes(12 * SegmentSize + 777);
        await using var backup = new MockNntpServer(new MockNntpOptions { Seed = 16, MessageIdToken = "inn-failover-" + Guid.NewGuid().ToString("N") });
        var file = backup.Store.AddFile("failover.bin", data, SegmentSize);
        await backup.StartAsync(Ct);
        var skipped = new HashSet<int> { 2, 7, 13 };
        await using (var poster = await NntpPoster.ConnectAsync(InnServer.Poster, Ct))
        {
            await poster.PostMockFileAsync(file, data, 1, a => !skipped.Contains(a.Number), Ct);
            foreach (var article in file.Articles)
                Assert.Equal(!skipped.Contains(article.Number), await poster.StatAsync(article.MessageId, Ct));
        }
        using var nzb = new MemoryStream();
        backup.WriteNzb(nzb, "Inn.Failover");

        await using var host = await IngestionHost.StartAsync(work.Path, null, NullLoggerProvider.Instance, Ct,
        [
            .. InnServer.ProviderArguments(0),
            "--Usenet:Providers:1:Name=mock", "--Usenet:Providers:1:Host=127.0.0.1", "--Usenet:Providers:1:Port=" + backup.Port,
            "--Usenet:Providers:1:UseTls=false", "--Usenet:Providers:1:MaxConnections=4", "--Usenet:Providers:1:Role=BackupOnly",
        ]);
        await AssertCompletedAsync(host, nzb.ToArray(), "Inn.Failover");
        using var whole = await host.GetAsync("Inn.Failover", "failover.bin", Ct);

        Assert.Equal(HttpStatusCode.OK, whole.StatusCode);
        Assert.Equal(Sha256(data), Sha256(await whole.Content.ReadAsByteArrayAsync(Ct)));
        // The backup is asked only for what inn lacks (the import check may STAT them there too).
        Assert.InRange(backup.Stats.GetCommandCount(MockCommandKind.Body), skipped.Count, 2 * skipped.Count);
    }

    [Fact]
    public async Task The_import_health_check_STATs_inn_and_fails_a_release_it_lost_the_end_of()
    {
        await InnServer.EnsureRunningAsync(Ct);
        using var work = new TempDirectory();
        var data = RandomNumberGenerator.GetBytes(20 * SegmentSize);
        await using var scratch = new MockNntpServer(new MockNntpOptions { Seed = 17, MessageIdToken = "inn-health-" + Guid.NewGuid().ToString("N") });
        var file = scratch.Store.AddFile("takedown.bin", data, SegmentSize);
        await using (var poster = await NntpPoster.ConnectAsync(InnServer.Poster, Ct))
            await poster.PostMockFileAsync(file, data, 1, a => a.Number < 19, Ct); // the last two are gone
        using var nzb = new MemoryStream();
        scratch.WriteNzb(nzb, "Inn.Takedown");

        await using var host = await IngestionHost.StartAsync(work.Path, null, NullLoggerProvider.Instance, Ct, InnServer.ProviderArguments(0));
        var slot = await host.AddAndWaitAsync(nzb.ToArray(), "Inn.Takedown.nzb", Ct);

        Assert.Equal("Failed", slot.GetProperty("status").GetString());
        var message = slot.GetProperty("fail_message").GetString()!;
        Assert.Contains("Articles missing", message);
        Assert.Contains("takedown.bin", message);
    }

    [Fact]
    public async Task Inn_requires_TLS_and_a_login_and_says_why_when_they_are_missing()
    {
        await InnServer.EnsureRunningAsync(Ct);
        var factory = new NntpConnectionFactory(NullLoggerFactory.Instance);
        UsenetProviderOptions Tls(string? user, string? password) => new()
        {
            Name = "inn", Host = InnServer.TlsHost, Port = InnServer.TlsPort, UseTls = true, AllowUntrustedCertificate = true,
            User = user, Password = password, OperationTimeout = TimeSpan.FromSeconds(10),
        };

        // A wrong password: 481, a refused login.
        await Assert.ThrowsAsync<NntpAuthenticationException>(() => factory.ConnectAsync(Tls(InnServer.User, "wrong"), TimeProvider.System, Ct));
        // No login: reading is refused with 480.
        await using (var anonymous = await factory.ConnectAsync(Tls(null, null), TimeProvider.System, Ct))
            await Assert.ThrowsAsync<NntpAuthenticationException>(() => anonymous.StatAsync("<nothing@nzbdav.test>", Ct));
        // Plain text to the TLS port: no greeting a client could read. innd says nothing until it
        // has a TLS hello, so the client gives up at its operation timeout (short here: with 10 s it
        // was most of this test's time).
        await Assert.ThrowsAnyAsync<NntpException>(() => factory.ConnectAsync(Tls(null, null) with { UseTls = false, OperationTimeout = TimeSpan.FromSeconds(2) }, TimeProvider.System, Ct));
        // A login over the plain port: innd (transit mode) refuses AUTHINFO, MODE READER hands over to nnrpd, which wants TLS first.
        var plain = Tls(InnServer.User, InnServer.Password) with { Host = InnServer.PlainHost, Port = InnServer.PlainPort, UseTls = false };
        var refused = await Assert.ThrowsAsync<NntpAuthenticationException>(() => factory.ConnectAsync(plain, TimeProvider.System, Ct));
        Assert.Contains("turn on TLS", refused.Message, StringComparison.Ordinal);
        // With TLS and the login: in.
        await using var reader = await factory.ConnectAsync(Tls(InnServer.User, InnServer.Password), TimeProvider.System, Ct);
        Assert.False(await reader.StatAsync("<nothing@nzbdav.test>", Ct));
    }

    [Fact]
    public async Task Innd_greets_in_transit_mode_and_the_client_switches_it_to_reading_pipelined_long_lines()
    {
        await InnServer.EnsureRunningAsync(Ct);
        // 997-character yEnc lines (the longest NNTP allows with CRLF and a stuffed dot), a first
        // part whose every line starts with '.' (byte 4 encodes to '.'), read back four BODYs in flight.
        var data = RandomNumberGenerator.GetBytes(6 * SegmentSize + 99);
        data.AsSpan(0, SegmentSize).Fill((byte)('.' - 42));
        PostedFile posted;
        await using (var poster = await NntpPoster.ConnectAsync(InnServer.Poster with { LineLength = 997 }, Ct))
            posted = await poster.PostFileAsync("transit.bin", data, SegmentSize, 0, 1, Ct);
        var factory = new NntpConnectionFactory(NullLoggerFactory.Instance);
        var provider = new UsenetProviderOptions
        {
            Name = "innd", Host = InnServer.PlainHost, Port = InnServer.PlainPort, UseTls = false, PipelineDepth = 4, OperationTimeout = TimeSpan.FromSeconds(10),
        };

        await using var connection = await factory.ConnectAsync(provider, TimeProvider.System, Ct);

        Assert.Contains("transit mode", ((NntpConnection)connection).Greeting, StringComparison.Ordinal);
        Assert.True(await connection.StatAsync(posted.Segments[0].MessageId, Ct));
        Assert.False(await connection.StatAsync("<nothing@nzbdav.test>", Ct));
        var targets = posted.Segments.Select(_ => new CollectingTarget()).ToArray();
        var headers = await Task.WhenAll(posted.Segments.Select((s, i) => connection.BodyAsync(s.MessageId, targets[i], Ct)));
        var decoded = new byte[data.Length];
        for (var i = 0; i < headers.Length; i++)
        {
            Assert.Equal(997, headers[i].LineLength);
            Assert.True(targets[i].Trailer is not null, $"part {i + 1} has no trailer");
            targets[i].Data.CopyTo(decoded, headers[i].PartBegin);
        }
        Assert.Equal(data, decoded);
    }

    /// <summary>Collects one article's decoded bytes.</summary>
    private sealed class CollectingTarget : IYencBodyTarget
    {
        private readonly List<byte> _data = [];
        private readonly byte[] _span = new byte[64 * 1024];

        public YencTrailer? Trailer { get; private set; }

        public byte[] Data => [.. _data];

        public void Begin(YencHeader header) { }

        public Span<byte> GetSpan() => _span;

        public void Advance(int count) => _data.AddRange(_span.AsSpan(0, count));

        public void Complete(YencTrailer trailer) => Trailer = trailer;
    }

    private static async Task<byte[]> PostAsync(string title, IReadOnlyList<(string Name, byte[] Data)> files, int segmentSize = SegmentSize)
    {
        var posted = new List<PostedFile>();
        await using (var poster = await NntpPoster.ConnectAsync(InnServer.Poster, Ct))
        {
            for (var i = 0; i < files.Count; i++)
                posted.Add(await poster.PostFileAsync(files[i].Name, files[i].Data, segmentSize, i, files.Count, Ct));
        }
        using var nzb = new MemoryStream();
        PostedNzbWriter.Write(nzb, posted, title, InnServer.Newsgroup, Poster, DateTimeOffset.UtcNow);
        return nzb.ToArray();
    }

    private static async Task AssertCompletedAsync(IngestionHost host, byte[] nzb, string job)
    {
        var slot = await host.AddAndWaitAsync(nzb, job + ".nzb", Ct);
        Assert.True(slot.GetProperty("status").GetString() == "Completed", $"{job}: {slot.GetProperty("status")} {slot.GetProperty("fail_message")}");
    }

    private static async Task AssertSha256Async(IngestionHost host, string job, IReadOnlyDictionary<string, string> expected)
    {
        foreach (var (path, sha) in expected)
        {
            using var response = await host.GetAsync(job, path, Ct);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Equal(sha, Sha256(await response.Content.ReadAsByteArrayAsync(Ct)));
        }
    }

    private static string Sha256(byte[] data) => Convert.ToHexStringLower(SHA256.HashData(data));
}

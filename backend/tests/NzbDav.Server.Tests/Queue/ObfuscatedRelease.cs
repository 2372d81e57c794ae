using System.Diagnostics;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Nzb;

namespace NzbDav.Server.Tests.Queue;

/// <summary>
/// A plain video posted under a random name with a PAR2 set made by the real <c>par2</c> tool, so
/// only the PAR2 file description knows the real name.
/// </summary>
internal static class ObfuscatedRelease
{
    public const string RealName = "Real.Show.S01E01.1080p.WEB.mkv";
    public const int VideoSize = 200_000;
    public const int SegmentSize = 64 * 1024;

    /// <summary>Posts the video and its PAR2 set to <paramref name="server"/>; answers their NZB and the posted video.</summary>
    public static async Task<(byte[] Nzb, MockFile Video)> PostAsync(MockNntpServer server, string workDirectory, CancellationToken cancellationToken)
    {
        var video = new byte[VideoSize];
        new Random(11).NextBytes(video);
        // EBML magic so the classifier sees Matroska.
        video[0] = 0x1A; video[1] = 0x45; video[2] = 0xDF; video[3] = 0xA3;
        var videoPath = Path.Combine(workDirectory, RealName);
        await File.WriteAllBytesAsync(videoPath, video, cancellationToken);
        var start = new ProcessStartInfo("par2", ["create", "-q", "-q", "-r5", "-n1", "set.par2", RealName])
        {
            WorkingDirectory = workDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using (var process = Process.Start(start)!)
        {
            await process.WaitForExitAsync(cancellationToken);
            Assert.True(process.ExitCode == 0, "par2 create failed: " + await process.StandardError.ReadToEndAsync(cancellationToken));
        }

        List<MockFile> posted = [server.Store.AddFile("7f3a9c1e5b2d8f4a6c0e1b3d5f7a9c2e", video, SegmentSize)];
        foreach (var par2 in Directory.GetFiles(workDirectory, "*.par2").Order(StringComparer.Ordinal))
        {
            var obfuscated = Path.GetFileName(par2).Replace("set", "b4e8d2a6c0f9e3b7a1d5c9f2e6b0a4d8", StringComparison.Ordinal);
            posted.Add(server.Store.AddFile(obfuscated, await File.ReadAllBytesAsync(par2, cancellationToken), SegmentSize));
        }

        // Of these files only: the server may be the shared provider, holding other tests' files too.
        using var nzb = new MemoryStream();
        MockNzbWriter.Write(nzb, posted, "obfuscated", server.StartedAt);
        return (nzb.ToArray(), posted[0]);
    }
}

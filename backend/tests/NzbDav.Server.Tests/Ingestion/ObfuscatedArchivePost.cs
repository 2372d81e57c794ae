using System.Diagnostics;
using System.Security.Cryptography;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Nzb;

namespace NzbDav.Server.Tests.Ingestion;

/// <summary>
/// Posts files to the mock server under random hex names, with a PAR2 set made by the real
/// <c>par2</c> tool over the real names, so only PAR2 can tell the names back.
/// </summary>
internal static class ObfuscatedArchivePost
{
    // Above 16 KiB so the first article carries the PAR2 16k hash; small enough for several articles per volume.
    public const int SegmentSize = 20_000;

    public static async Task<byte[]> PostAsync(MockNntpServer server, string workDirectory, IReadOnlyList<string> files, CancellationToken cancellationToken)
    {
        var names = new List<string>();
        foreach (var file in files)
        {
            var name = Path.GetFileName(file);
            File.Copy(file, Path.Combine(workDirectory, name));
            names.Add(name);
        }

        var start = new ProcessStartInfo("par2", ["create", "-q", "-q", "-r5", "-n1", "set.par2", .. names])
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

        var posted = new List<MockFile>();
        foreach (var name in names)
            posted.Add(server.Store.AddFile(RandomHex(), await File.ReadAllBytesAsync(Path.Combine(workDirectory, name), cancellationToken), SegmentSize));
        foreach (var par2 in Directory.GetFiles(workDirectory, "*.par2").Order(StringComparer.Ordinal))
        {
            var obfuscated = Path.GetFileName(par2).Replace("set", RandomHex(), StringComparison.Ordinal);
            posted.Add(server.Store.AddFile(obfuscated, await File.ReadAllBytesAsync(par2, cancellationToken), SegmentSize));
        }

        // Of these files only: the server may be the shared provider, holding other tests' files too.
        using var nzb = new MemoryStream();
        MockNzbWriter.Write(nzb, posted, "obfuscated", server.StartedAt);
        return nzb.ToArray();
    }

    private static string RandomHex() => Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(16));
}

using NzbDav.MockNntp;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;

namespace NzbDav.Server.Tests.RealClients;

/// <summary>Posts files to a fresh mock provider and ingests them as one job (category tv) on a real host.</summary>
internal static class RealClientRun
{
    public const string User = "admin";

    public static async Task<IngestionRun> StartAsync(string job, IReadOnlyList<(string Name, byte[] Data)> files, int segmentSize, CancellationToken cancellationToken)
    {
        var data = new TempDirectory();
        var nntp = new MockNntpServer();
        await nntp.StartAsync(cancellationToken);
        foreach (var (name, bytes) in files)
            nntp.Store.AddFile(name, bytes, segmentSize);
        using var nzb = new MemoryStream();
        nntp.WriteNzb(nzb, job);
        var host = await IngestionHost.StartAsync(data.Path, nntp.Port, cancellationToken);
        var slot = await host.AddAndWaitAsync(nzb.ToArray(), job + ".nzb", cancellationToken);
        var run = new IngestionRun(host, nntp, slot, [data]);
        if (slot.GetProperty("status").GetString() != "Completed")
        {
            var reason = slot.GetProperty("fail_message").GetString();
            await run.DisposeAsync();
            Assert.Fail($"Job {job} did not complete: {reason}");
        }

        return run;
    }

    /// <summary>The WebDAV root of the run's host.</summary>
    public static Uri Root(IngestionRun run) => run.Host.Dav.BaseAddress!;
}

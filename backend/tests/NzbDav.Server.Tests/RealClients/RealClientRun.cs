using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.RealClients;

/// <summary>Posts files to the shared mock provider and ingests them as one job (category tv) on a real host.</summary>
internal static class RealClientRun
{
    public const string User = "admin";

    public static async Task<IngestionRun> StartAsync(MockProviderFixture provider, string job, IReadOnlyList<(string Name, byte[] Data)> files, int segmentSize, CancellationToken cancellationToken)
    {
        var data = new TempDirectory();
        var nzb = provider.Nzb(job, [.. files.Select(f => provider.Store.AddFile(f.Name, f.Data, segmentSize))]);
        var host = await IngestionHost.StartAsync(data.Path, provider.Port, cancellationToken);
        var slot = await host.AddAndWaitAsync(nzb, job + ".nzb", cancellationToken);
        var run = new IngestionRun(host, slot, [data]);
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

using System.Text.Json;
using NzbDav.MockNntp;

namespace NzbDav.Server.Tests.Ingestion;

/// <summary>One ingested job: the host, its mock provider, the history slot and the temp folders to remove.</summary>
internal sealed record IngestionRun(IngestionHost Host, MockNntpServer Nntp, JsonElement Slot, IReadOnlyList<IDisposable> Temporaries) : IAsyncDisposable
{
    public async ValueTask DisposeAsync()
    {
        await Host.DisposeAsync();
        await Nntp.DisposeAsync();
        foreach (var temporary in Temporaries)
            temporary.Dispose();
    }
}

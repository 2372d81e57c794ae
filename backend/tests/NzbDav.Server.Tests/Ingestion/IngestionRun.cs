using System.Text.Json;

namespace NzbDav.Server.Tests.Ingestion;

/// <summary>One ingested job from the shared mock provider: the host, the history slot and the temp folders to remove.</summary>
internal sealed record IngestionRun(IngestionHost Host, JsonElement Slot, IReadOnlyList<IDisposable> Temporaries) : IAsyncDisposable
{
    public async ValueTask DisposeAsync()
    {
        await Host.DisposeAsync();
        foreach (var temporary in Temporaries)
            temporary.Dispose();
    }
}

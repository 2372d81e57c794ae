using System.Text.Json;

namespace NzbDav.Testing.Hosting;

/// <summary>Where an API lists queued and finished jobs: a path to GET, the array in its answer, and the id field.</summary>
/// <param name="QueuePath">GET path of the queue.</param>
/// <param name="QueueItems">Dotted path to the queue's array in that answer.</param>
/// <param name="HistoryPath">GET path of the history.</param>
/// <param name="HistoryItems">Dotted path to the history's array in that answer.</param>
/// <param name="Id">The job id field of an item.</param>
public sealed record JobListApi(string QueuePath, string QueueItems, string HistoryPath, string HistoryItems, string Id)
{
    /// <summary>The web UI's API (<c>/ui/api/queue</c>, <c>/ui/api/history</c>), as the page polls it.</summary>
    public static JobListApi WebUi { get; } = new("/ui/api/queue", "jobs", "/ui/api/history?pageSize=200", "jobs", "id");

    /// <summary>The SABnzbd API, as Sonarr polls it.</summary>
    public static JobListApi Sab(string apiKey) =>
        new($"/api?output=json&apikey={apiKey}&mode=queue", "queue.slots", $"/api?output=json&apikey={apiKey}&mode=history", "history.slots", "nzo_id");
}

/// <summary>
/// Waits for jobs to reach the history by polling an API like its client does, on top of
/// <see cref="Waiting.PollAsync{T}"/>. The host's work is real (NNTP, archives, the database), so
/// the bound is generous: it only ends a hung test.
/// </summary>
public static class JobHistory
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(90);

    private static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(20);

    /// <summary>
    /// Polls until the job <paramref name="id"/> is in the history, and returns its history item.
    /// With <paramref name="mustStayQueued"/> the queue is read before the history on every poll:
    /// a job leaves the queue only by entering the history, so one absent from the earlier queue
    /// read must be in the later history read, and a job in neither fails the test as lost.
    /// </summary>
    /// <param name="getJson">GETs a path of the API with the client's credentials and parses the answer.</param>
    public static async Task<JsonElement> WaitForHistoryAsync(
        Func<string, CancellationToken, Task<JsonElement>> getJson, JobListApi api, string id, bool mustStayQueued,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(getJson);
        ArgumentNullException.ThrowIfNull(api);
        var reading = await Waiting.PollAsync(
            async token =>
            {
                var queued = mustStayQueued && Items(await getJson(api.QueuePath, token).ConfigureAwait(false), api.QueueItems).Any(j => IdOf(j, api) == id);
                var history = Items(await getJson(api.HistoryPath, token).ConfigureAwait(false), api.HistoryItems);
                var found = history.Where(j => IdOf(j, api) == id).Select(j => (JsonElement?)j).FirstOrDefault();
                if (found is null && mustStayQueued)
                    Assert.True(queued, $"Job {id} is neither queued nor in the history: it was lost.");
                return (Found: found, HistoryCount: history.Length);
            },
            r => r.Found is not null,
            $"job {id} to reach the history ({api.HistoryPath})",
            Timeout, Interval,
            r => $"{r.HistoryCount} other jobs in the history",
            cancellationToken).ConfigureAwait(false);
        return reading.Found!.Value;
    }

    /// <summary>Polls until the history holds at least <paramref name="count"/> jobs, and returns them all.</summary>
    public static Task<JsonElement[]> WaitForHistoryAsync(
        Func<string, CancellationToken, Task<JsonElement>> getJson, JobListApi api, int count,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(getJson);
        ArgumentNullException.ThrowIfNull(api);
        return Waiting.PollAsync(
            async token => Items(await getJson(api.HistoryPath, token).ConfigureAwait(false), api.HistoryItems),
            items => items.Length >= count,
            $"{count} jobs in the history ({api.HistoryPath})",
            Timeout, Interval,
            items => $"{items.Length} jobs in the history",
            cancellationToken);
    }

    private static JsonElement[] Items(JsonElement answer, string path)
    {
        foreach (var name in path.Split('.'))
            answer = answer.GetProperty(name);
        return [.. answer.EnumerateArray()];
    }

    private static string? IdOf(JsonElement item, JobListApi api) => item.GetProperty(api.Id).GetString();
}

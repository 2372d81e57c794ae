namespace NzbDav.Server.Queue;

/// <summary>
/// One lease of an <see cref="ArticleFetcher"/>: its pipeline depth once leased and how many of its
/// requests are out. Mutable state is only touched under the fetcher's gate.
/// </summary>
internal sealed class FetchWorker(int assumedDepth)
{
    private TaskCompletionSource? _wake;

    /// <summary>False while the lease is being acquired.</summary>
    public bool Leased { get; set; }

    public int Depth { get; set; } = assumedDepth;

    public int InFlight { get; set; }

    /// <summary>Room for more requests (a worker still acquiring counts its whole assumed depth).</summary>
    public int FreeSlots => Leased ? Depth - InFlight : Depth;

    /// <summary>A task that completes at the next <see cref="Wake"/>.</summary>
    public Task NextWake()
    {
        _wake = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        return _wake.Task;
    }

    public void Wake() => _wake?.TrySetResult();
}

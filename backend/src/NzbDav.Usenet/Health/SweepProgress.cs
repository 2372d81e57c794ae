namespace NzbDav.Usenet.Health;

/// <summary>
/// How far one <see cref="StatSweep.CheckAsync(IReadOnlyList{string}, SweepProgress?, CancellationToken)"/> got: the
/// STATs asked, answered so far, and how many of those were present, missing everywhere or unanswered.
/// Written by the sweep's answers, read at any time from another thread.
/// </summary>
public sealed class SweepProgress
{
    private int _total;

    /// <param name="total">STATs the check will ask, known before it starts (so a reader never sees "0 of 0"); the sweep sets it again.</param>
    public SweepProgress(int total = 0)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(total);
        _total = total;
    }
    private int _present;
    private int _missing;
    private int _unknown;

    /// <summary>STATs this check asks.</summary>
    public int Total => Volatile.Read(ref _total);

    /// <summary>Answers so far, of any kind.</summary>
    public int Done => Present + Missing + Unknown;

    public int Present => Volatile.Read(ref _present);

    public int Missing => Volatile.Read(ref _missing);

    /// <summary>Timeouts and provider faults: no answer either way.</summary>
    public int Unknown => Volatile.Read(ref _unknown);

    internal void Begin(int total) => Volatile.Write(ref _total, total);

    internal void Answered(ArticleAvailability result)
    {
        switch (result)
        {
            case ArticleAvailability.Present:
                Interlocked.Increment(ref _present);
                break;
            case ArticleAvailability.Missing:
                Interlocked.Increment(ref _missing);
                break;
            default:
                Interlocked.Increment(ref _unknown);
                break;
        }
    }
}

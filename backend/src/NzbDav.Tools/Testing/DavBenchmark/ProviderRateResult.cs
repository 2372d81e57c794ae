namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// What the provider sent per second through a phase, from its own byte count sampled every second.
/// The first <see cref="WarmUpSeconds"/> are left out: the sockets' buffers fill then, and a sender
/// gets that far ahead of the reader only once.
/// </summary>
public sealed record ProviderRateResult(double Seconds, double AverageBytesPerSecond, double SlowestSecond, double FastestSecond)
{
    public const int WarmUpSeconds = 5;

    public static ProviderRateResult? From(IReadOnlyList<(double Seconds, long Bytes)> samples)
    {
        if (samples.Count < WarmUpSeconds + 2)
            return null;
        var window = samples.Skip(WarmUpSeconds).ToList();
        var perSecond = window.Zip(window.Skip(1), static (a, b) => (b.Bytes - a.Bytes) / Math.Max(0.001, b.Seconds - a.Seconds)).ToList();
        var seconds = window[^1].Seconds - window[0].Seconds;
        return new ProviderRateResult(seconds, (window[^1].Bytes - window[0].Bytes) / seconds, perSecond.Min(), perSecond.Max());
    }
}

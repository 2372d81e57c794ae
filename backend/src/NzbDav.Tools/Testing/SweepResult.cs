namespace NzbDav.Tools.Testing;

/// <summary>A health sweep measured by the tester: STATs answered, by outcome, in how long.</summary>
public sealed record SweepResult(int Articles, int Present, int Missing, int Unknown, TimeSpan Elapsed)
{
    public double ArticlesPerSecond => Elapsed > TimeSpan.Zero ? Articles / Elapsed.TotalSeconds : 0;
}

namespace NzbDav.Usenet.Health;

/// <summary>Outcomes of the STATs of one check, counted once when it ends.</summary>
public readonly record struct StatSweepCounts(int Present, int Missing, int Unknown)
{
    public int Total => Present + Missing + Unknown;

    public static StatSweepCounts Of(ReadOnlySpan<ArticleAvailability> results)
    {
        int present = 0, missing = 0, unknown = 0;
        foreach (var result in results)
        {
            switch (result)
            {
                case ArticleAvailability.Present: present++; break;
                case ArticleAvailability.Missing: missing++; break;
                default: unknown++; break;
            }
        }
        return new StatSweepCounts(present, missing, unknown);
    }
}

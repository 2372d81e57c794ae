namespace NzbDav.Archives.Release;

/// <summary>Extracts the file name posters put in double quotes in an NZB subject.</summary>
internal static class SubjectNames
{
    public static string? QuotedName(string? subject)
    {
        if (subject is null)
        {
            return null;
        }

        var open = subject.IndexOf('"');
        var close = open < 0 ? -1 : subject.IndexOf('"', open + 1);
        return close > open + 1 ? subject[(open + 1)..close] : null;
    }
}

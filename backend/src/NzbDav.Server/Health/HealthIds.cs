namespace NzbDav.Server.Health;

/// <summary>Message-id lists as stored in <see cref="NzbDav.Data.Entities.FileHealth"/> (newline-separated).</summary>
internal static class HealthIds
{
    /// <summary>Most ids stored per list: a Degraded file has few holes; a Broken one needs no complete list.</summary>
    public const int MaxStored = 5000;

    public static string[] Split(string? stored) =>
        string.IsNullOrEmpty(stored) ? [] : stored.Split('\n', StringSplitOptions.RemoveEmptyEntries);

    public static string? Join(IEnumerable<string> ids)
    {
        var list = ids.Take(MaxStored).ToList();
        return list.Count == 0 ? null : string.Join('\n', list);
    }
}

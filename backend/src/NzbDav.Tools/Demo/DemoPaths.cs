namespace NzbDav.Tools.Demo;

/// <summary>
/// Where demo mode keeps its files: <c>&lt;DataDirectory&gt;/demo</c> holds the cached sample video and
/// <c>library/</c>, a database recreated on every demo start, and <c>nzbs/</c>, the samples' NZBs of this run. The real library is never opened, and an
/// old demo database is useless anyway: its message-ids belonged to the previous run's mock server.
/// </summary>
internal sealed record DemoPaths(string Root, string Library)
{
    public static DemoPaths Resolve(string[] args)
    {
        // The same sources the host reads the data directory from (Docker sets NzbDav__DataDirectory).
        var configuration = new ConfigurationBuilder()
            .AddEnvironmentVariables()
            .AddCommandLine(args)
            .Build();
        var dataDirectory = configuration["NzbDav:DataDirectory"];
        var root = Path.GetFullPath(Path.Combine(string.IsNullOrWhiteSpace(dataDirectory) ? "./data" : dataDirectory, "demo"));
        return new DemoPaths(root, Path.Combine(root, "library"));
    }

    public string CachedVideo => Path.Combine(Root, "demo.mkv");

    public string Nzbs => Path.Combine(Root, "nzbs");

    /// <summary>Creates the demo folder and empty library and NZB folders.</summary>
    public void PrepareFreshLibrary()
    {
        Directory.CreateDirectory(Root);
        foreach (var folder in new[] { Library, Nzbs })
        {
            if (Directory.Exists(folder))
                Directory.Delete(folder, recursive: true);
            Directory.CreateDirectory(folder);
        }
    }
}

namespace NzbDav.Tools.Demo;

/// <summary>
/// Where demo mode keeps its files: <c>&lt;DataDirectory&gt;/demo</c> holds the cached sample video and
/// <c>library/</c>, a database recreated on every demo start. The real library is never opened, and an
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

    /// <summary>Creates the demo folder and an empty library folder.</summary>
    public void PrepareFreshLibrary()
    {
        Directory.CreateDirectory(Root);
        if (Directory.Exists(Library))
            Directory.Delete(Library, recursive: true);
        Directory.CreateDirectory(Library);
    }
}

namespace NzbDav.Server.Tests.Ingestion;

/// <summary>The shared real archives (shared/testdata/archives above the checkout) and their expected contents.</summary>
internal static class ArchiveTestData
{
    public static readonly IReadOnlyDictionary<string, string> ThreeFiles = new Dictionary<string, string>
    {
        ["exe/test.exe"] = "8557928804f57ecc340b3bb38b095a3607474ec8deb0076f316fcfe02b562106",
        ["jpg/test.jpg"] = "b251c7501fb0f55dd4a92feabe0a6f5733bc40a02679498155fae9b30138fc53",
        ["тест.txt"] = "4d581d93d369f6e1c9b295ff38d82dabd577f927dfaf0c35818c015c85e322d9",
    };

    public static readonly IReadOnlyDictionary<string, string> StoredBin = new Dictionary<string, string>
    {
        ["stored.bin"] = "2f0dfd9db28e6c51bf969d5aaf89936b2229001807cd91eb9de8276d9bdaf329",
    };

    public static string Directory { get; } = Find();

    public static string Archive(string name) => Path.Combine(Directory, name);

    private static string Find()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var candidate = Path.Combine(dir.FullName, "shared", "testdata", "archives");
            if (System.IO.Directory.Exists(candidate))
                return candidate;
        }

        throw new DirectoryNotFoundException("shared/testdata/archives was not found above " + AppContext.BaseDirectory);
    }
}

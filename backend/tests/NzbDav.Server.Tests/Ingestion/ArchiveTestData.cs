namespace NzbDav.Server.Tests.Ingestion;

/// <summary>The repository's real archives (backend/tests/TestData/archives) and their expected contents.</summary>
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

    /// <summary>backend/tests/TestData/archives, copied beside the test assembly by the build; nothing outside the repository is read.</summary>
    public static string Directory { get; } = Path.Combine(AppContext.BaseDirectory, "TestData", "archives");

    public static string Archive(string name)
    {
        var path = Path.Combine(Directory, name);
        return File.Exists(path)
            ? path
            : throw new FileNotFoundException($"Test archive '{name}' is not in {Directory}; the build copies backend/tests/TestData/archives there", path);
    }
}

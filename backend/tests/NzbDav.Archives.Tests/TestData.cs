namespace NzbDav.Archives.Tests;

/// <summary>
/// The real archives of backend/tests/TestData/archives, copied beside the test assembly by the
/// build. Nothing outside the repository is looked at, so a fresh clone runs the same tests.
/// </summary>
internal static class TestData
{
    public static string ArchivesDirectory { get; } = Path.Combine(AppContext.BaseDirectory, "TestData", "archives");

    public static string Archive(string name)
    {
        var path = Path.Combine(ArchivesDirectory, name);
        return File.Exists(path)
            ? path
            : throw new FileNotFoundException($"Test archive '{name}' is not in {ArchivesDirectory}; the build copies backend/tests/TestData/archives there", path);
    }
}

namespace NzbDav.Archives.Tests;

/// <summary>Locates ../shared/testdata beside the checkout (CI clones main with shared/ beside it).</summary>
internal static class TestData
{
    public static string ArchivesDirectory { get; } = Find();

    public static string Archive(string name) => Path.Combine(ArchivesDirectory, name);

    private static string Find()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var candidate = Path.Combine(dir.FullName, "shared", "testdata", "archives");
            if (Directory.Exists(candidate))
            {
                return candidate;
            }
        }

        throw new DirectoryNotFoundException("shared/testdata/archives was not found above " + AppContext.BaseDirectory);
    }
}

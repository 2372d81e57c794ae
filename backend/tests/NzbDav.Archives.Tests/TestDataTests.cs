namespace NzbDav.Archives.Tests;

public sealed class TestDataTests
{
    [Fact]
    public void Repository_archives_are_copied_beside_the_tests() =>
        Assert.True(File.Exists(TestData.Archive("Rar5.none.rar")), TestData.ArchivesDirectory);

    [Fact]
    public void Test_archives_are_read_from_the_output_directory_only() =>
        Assert.StartsWith(AppContext.BaseDirectory, TestData.ArchivesDirectory, StringComparison.Ordinal);
}

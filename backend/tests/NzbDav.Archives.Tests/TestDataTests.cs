namespace NzbDav.Archives.Tests;

public sealed class TestDataTests
{
    [Fact]
    public void Shared_archives_are_reachable() =>
        Assert.True(File.Exists(TestData.Archive("Rar5.none.rar")), TestData.ArchivesDirectory);
}

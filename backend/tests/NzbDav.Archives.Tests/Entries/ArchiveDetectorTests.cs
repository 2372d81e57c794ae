using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Tests.Entries;

public sealed class ArchiveDetectorTests
{
    [Theory]
    [InlineData("Rar.none.rar", ArchiveFormat.Rar4)]
    [InlineData("Rar5.none.rar", ArchiveFormat.Rar5)]
    [InlineData("Rar5.multi.none.part02.rar", ArchiveFormat.Rar5)]
    [InlineData("7Zip.Copy.7z", ArchiveFormat.SevenZip)]
    [InlineData("README.md", ArchiveFormat.None)]
    public async Task Detects_by_magic_bytes(string name, ArchiveFormat expected)
    {
        await using var stream = File.OpenRead(TestData.Archive(name));
        Assert.Equal(expected, await ArchiveReader.DetectAsync(stream, TestContext.Current.CancellationToken));
    }

    [Fact]
    public void Short_or_empty_prefixes_are_not_archives()
    {
        Assert.Equal(ArchiveFormat.None, ArchiveDetector.Detect([]));
        Assert.Equal(ArchiveFormat.None, ArchiveDetector.Detect("Rar!"u8));
    }

    [Fact]
    public async Task Facade_refuses_unknown_formats_clearly()
    {
        using var set = VolumeSet.OpenShared("README.md");
        var error = await Assert.ThrowsAsync<ArchiveFormatException>(() => new ArchiveReader().ReadAsync(set.Streams, null, TestContext.Current.CancellationToken));
        Assert.Contains("not a RAR4, RAR5 or 7z archive", error.Message);
    }

    [Theory]
    [InlineData("Rar.none.rar")]
    [InlineData("Rar5.none.rar")]
    [InlineData("7Zip.Copy.7z")]
    public async Task Facade_lists_every_shared_archive(string name)
    {
        using var set = VolumeSet.OpenShared(name);
        var listing = await new ArchiveReader().ReadAsync(set.Streams, null, TestContext.Current.CancellationToken);
        Assert.Equal(3, listing.Entries.Count(e => !e.IsDirectory));
    }
}

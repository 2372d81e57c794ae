using System.Security.Cryptography;
using NzbDav.Archives.Entries;
using NzbDav.Archives.Tests.Entries;
using NzbDav.Archives.Tests.Release;
using SharpCompress.Archives;
using SharpCompress.Readers;

namespace NzbDav.Archives.Tests.SevenZip;

/// <summary>
/// SharpCompress, a reader we did not write, as the judge: for every archive it can read, the
/// entry names, sizes and bytes it extracts equal what our mapped ranges (and decrypting view) serve.
/// </summary>
public sealed class SharpCompressOracleTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    public static TheoryData<string[]> RepositoryArchives => new(
        ["7Zip.Copy.7z"],
        ["Rar.none.rar"],
        ["Rar5.none.rar"],
        ["Rar5.multi.none.part01.rar", "Rar5.multi.none.part02.rar", "Rar5.multi.none.part03.rar"]);

    [Theory]
    [MemberData(nameof(RepositoryArchives))]
    public async Task Repository_archives_serve_what_sharpcompress_extracts(string[] names)
    {
        var paths = names.Select(TestData.Archive).ToArray();
        var oracle = Extract(paths, password: null);
        Assert.NotEmpty(oracle);

        Assert.Equal(oracle, await ServeAsync(paths, password: null));
    }

    [Theory]
    [MemberData(nameof(SevenZipToolArchiveTests.Kinds), MemberType = typeof(SevenZipToolArchiveTests))]
    public async Task Tool_made_7z_archives_serve_what_sharpcompress_extracts(string kind, string[] switches, string? password)
    {
        using var directory = new TempDirectory();
        var volumes = await SevenZipTool.CreateAsync(directory.Path, kind + ".7z", SevenZipTool.SampleFiles(seed: 11), switches, Token);
        var oracle = Extract(volumes, password);
        Assert.Equal(SevenZipTool.SampleFiles().Count, oracle.Count);

        Assert.Equal(oracle, await ServeAsync(volumes, password));
    }

    [Fact]
    public async Task Compressed_rar5_is_refused_although_sharpcompress_extracts_it()
    {
        var path = TestData.Archive("Rar5.rar");
        Assert.Equal(3, Extract([path], password: null).Count);

        using var set = VolumeSet.OpenFiles([path]);
        var error = await Assert.ThrowsAsync<UnsupportedArchiveException>(() => new ArchiveReader().ReadAsync(set.Streams, null, Token));
        Assert.Contains("is compressed", error.Message, StringComparison.Ordinal);
        Assert.Contains("cannot be streamed", error.Message, StringComparison.Ordinal);
    }

    /// <summary>Path → (size, SHA-256) of every file SharpCompress extracts.</summary>
    private static SortedDictionary<string, (long Size, string Sha256)> Extract(string[] volumes, string? password)
    {
        // A split 7z is one byte sequence cut into files: the oracle reads the joined bytes, so its
        // own handling of .001 volumes can neither hide nor cause a difference. RAR volumes are archives
        // of their own and go in as they are.
        var options = new ReaderOptions { Password = password, LeaveStreamOpen = true };
        List<Stream> streams = Path.GetFileName(volumes[0]).Contains(".7z", StringComparison.Ordinal)
            ? [new MemoryStream(volumes.SelectMany(File.ReadAllBytes).ToArray(), writable: false)]
            : [.. volumes.Select(v => (Stream)File.OpenRead(v))];
        try
        {
            using var archive = ArchiveFactory.OpenArchive(streams, options);
            var files = new SortedDictionary<string, (long, string)>(StringComparer.Ordinal);
            foreach (var entry in archive.Entries.Where(e => !e.IsDirectory))
            {
                using var content = entry.OpenEntryStream();
                var hash = Convert.ToHexStringLower(SHA256.HashData(content));
                files.Add(entry.Key!.Replace('\\', '/'), (entry.Size, hash));
            }

            return files;
        }
        finally
        {
            foreach (var stream in streams)
            {
                stream.Dispose();
            }
        }
    }

    private static async Task<SortedDictionary<string, (long Size, string Sha256)>> ServeAsync(string[] volumes, string? password)
    {
        using var set = VolumeSet.OpenFiles(volumes);
        var listing = await new ArchiveReader().ReadAsync(set.Streams, password, Token);
        var files = new SortedDictionary<string, (long, string)>(StringComparer.Ordinal);
        foreach (var entry in listing.Entries.Where(e => !e.IsDirectory))
        {
            files.Add(entry.Path, (entry.Size, await set.Sha256Async(entry, Token)));
        }

        return files;
    }
}

using System.Security.Cryptography;
using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Tests.Entries;

/// <summary>Opens archive volumes as read-only FileStreams and reads entries back through their ranges.</summary>
internal sealed class VolumeSet : IDisposable
{
    private VolumeSet(IReadOnlyList<Stream> streams) => Streams = streams;

    public IReadOnlyList<Stream> Streams { get; }

    public static VolumeSet OpenShared(params string[] names) =>
        new([.. names.Select(name => (Stream)File.OpenRead(TestData.Archive(name)))]);

    public static VolumeSet OpenFiles(IEnumerable<string> paths) =>
        new([.. paths.Select(path => (Stream)File.OpenRead(path))]);

    public static VolumeSet FromBytes(params byte[][] volumes) =>
        new([.. volumes.Select(bytes => (Stream)new MemoryStream(bytes, writable: false))]);

    public static string Sha256(Stream stream) => Convert.ToHexStringLower(SHA256.HashData(stream));

    public async Task<byte[]> ReadAllAsync(ArchiveEntry entry, CancellationToken cancellationToken)
    {
        await using var stream = ArchiveEntryStream.Open(entry, Streams);
        var buffer = new MemoryStream();
        await stream.CopyToAsync(buffer, 7000, cancellationToken);
        return buffer.ToArray();
    }

    public async Task<string> Sha256Async(ArchiveEntry entry, CancellationToken cancellationToken) =>
        Convert.ToHexStringLower(SHA256.HashData(await ReadAllAsync(entry, cancellationToken)));

    public void Dispose()
    {
        foreach (var stream in Streams)
        {
            stream.Dispose();
        }
    }
}

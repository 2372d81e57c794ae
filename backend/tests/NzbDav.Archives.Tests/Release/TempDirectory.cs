namespace NzbDav.Archives.Tests.Release;

/// <summary>A fresh directory under the temp path, deleted on dispose.</summary>
internal sealed class TempDirectory : IDisposable
{
    public TempDirectory() => Directory.CreateDirectory(Path);

    public string Path { get; } = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "nzbdav-release-" + Guid.NewGuid().ToString("N"));

    public byte[] WriteRandomFile(string name, int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        File.WriteAllBytes(System.IO.Path.Combine(Path, name), bytes);
        return bytes;
    }

    public void Dispose() => Directory.Delete(Path, recursive: true);
}

namespace NzbDav.MockNntp.Articles;

/// <summary>A real file posted from disk; each part is read and encoded when requested.</summary>
internal sealed class DiskFileContent : IMockFileContent
{
    private readonly string _path;

    public DiskFileContent(string path)
    {
        _path = path;
        Length = new FileInfo(path).Length;
    }

    public long Length { get; }

    public void Read(long offset, Span<byte> destination)
    {
        using var handle = File.OpenHandle(_path);
        while (!destination.IsEmpty)
        {
            var read = RandomAccess.Read(handle, destination, offset);
            if (read == 0)
            {
                throw new IOException($"'{_path}' is shorter than when it was posted.");
            }
            destination = destination[read..];
            offset += read;
        }
    }

    public MockEncodedData Encode(int partIndex, long partBegin, int partSize)
    {
        var buffer = new byte[partSize];
        Read(partBegin, buffer);
        return YencDataLines.Encode(buffer);
    }
}

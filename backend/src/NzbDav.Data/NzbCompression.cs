using System.IO.Compression;

namespace NzbDav.Data;

/// <summary>Gzip for stored NZBs (XML compresses 5–10×).</summary>
public static class NzbCompression
{
    public static byte[] Compress(ReadOnlySpan<byte> nzb)
    {
        using var output = new MemoryStream(nzb.Length / 4 + 64);
        using (var gzip = new GZipStream(output, CompressionLevel.Fastest, leaveOpen: true))
        {
            gzip.Write(nzb);
        }

        return output.ToArray();
    }

    /// <summary>A readable stream of the original NZB bytes.</summary>
    public static Stream OpenRead(byte[] gzipData)
    {
        ArgumentNullException.ThrowIfNull(gzipData);
        return new GZipStream(new MemoryStream(gzipData, writable: false), CompressionMode.Decompress);
    }
}

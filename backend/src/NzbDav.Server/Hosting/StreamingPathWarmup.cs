using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;
using NzbDav.MockNntp;
using NzbDav.Server.WebDav;
using NzbDav.Streaming;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Hosting;

/// <summary>
/// Runs the streaming read path once, end to end, so the first playback does not run it in
/// freshly JIT-compiled (unoptimised) code: a private mock NNTP server on a loopback port posts a
/// small generated file, and a private client, stream factory and <see cref="LayoutDavFileOpener"/>
/// read it back twice (connect, pipelined BODY, yEnc decode, segment scheduler, combined stream,
/// seek). Enough calls that the hot methods are recompiled optimised in the background. Nothing of
/// it touches the configured providers, their pools or the limiter; it all is disposed afterwards.
/// </summary>
internal static class StreamingPathWarmup
{
    private const int Segments = 16;
    private const int SegmentBytes = 64 * 1024;
    private const int ReadBytes = 16 * 1024;
    private const int Passes = 2;

    /// <summary>Runs the reads; returns the bytes read (two whole passes plus a read after each seek).</summary>
    public static async Task<long> RunAsync(StreamingOptions streaming, CancellationToken cancellationToken)
    {
        await using var nntp = new MockNntpServer(new MockNntpOptions { MaxConnections = 4 });
        var file = nntp.Store.AddGeneratedFile("warmup.bin", Segments * SegmentBytes, SegmentBytes);
        await nntp.StartAsync(cancellationToken);

        var provider = new UsenetProviderOptions { Name = "warmup", Host = "127.0.0.1", Port = nntp.Port, UseTls = false, MaxConnections = 4 };
        await using var client = new UsenetClient(
            new UsenetOptions { Providers = [provider] },
            new NntpConnectionFactory(NullLoggerFactory.Instance),
            new GlobalOperationLimiter(LimiterOptions.CreateDefault(provider.MaxConnections)),
            TimeProvider.System,
            NullLogger<UsenetClient>.Instance);
        using var layouts = new DavLayoutCache();
        {
            var opener = new LayoutDavFileOpener(
                new NzbFileStreamFactory(client, streaming with { ConnectionsPerStream = provider.MaxConnections }, NullLoggerFactory.Instance), layouts);
            var ids = file.Articles.Select(a => a.MessageId).ToArray();
            var item = new DavItem
            {
                Id = Guid.Empty,
                Name = file.Name,
                Path = "/" + file.Name,
                Size = file.Size,
                Layout = DavFileLayoutCodec.Encode(new DavFileLayout([LayoutPart.WholeFile(ids, file.Size, SegmentBytes)])),
            };
            var buffer = new byte[ReadBytes];
            long total = 0;
            for (var pass = 0; pass < Passes; pass++)
            {
                await using var stream = await opener.OpenAsync(item, item.Size, cancellationToken);
                int read;
                while ((read = await stream.ReadAsync(buffer, cancellationToken)) > 0)
                    total += read;

                // A seek back into the file, as a player does when it scrubs.
                stream.Seek(file.Size / 2, SeekOrigin.Begin);
                await stream.ReadExactlyAsync(buffer, cancellationToken);
                total += buffer.Length;
            }

            return total;
        }
    }
}

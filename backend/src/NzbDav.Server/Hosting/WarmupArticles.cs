using System.Collections.Concurrent;
using System.IO.Hashing;
using System.IO.Pipelines;
using System.Text;
using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Hosting;

/// <summary>
/// The articles of <see cref="StreamingPathWarmup"/>'s private file, served from memory: a
/// connection factory for a private <see cref="UsenetClient"/> whose sessions are real
/// <see cref="NntpConnection"/>s over in-memory pipes, each answered by a <see cref="WarmupResponder"/>,
/// so the warm-up runs the session's send and receive loops and its yEnc decoder without a socket.
/// Every article is <see cref="SegmentBytes"/> zero bytes.
/// </summary>
internal sealed class WarmupArticles : INntpConnectionFactory
{
    public const string FileName = "warm-up.bin";
    private const int LineLength = 128;

    private readonly ConcurrentQueue<Task> _responders = new();
    private readonly CancellationToken _stopping;

    /// <param name="stopping">Ends every responder still running (the warm-up was stopped).</param>
    public WarmupArticles(int segments, int segmentBytes, CancellationToken stopping)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(segments);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(segmentBytes);
        SegmentBytes = segmentBytes;
        _stopping = stopping;
        // ".invalid" (RFC 2606) so the ids can never name a real article.
        MessageIds = [.. Enumerable.Range(1, segments).Select(part => $"{part}@warm-up.nzbdav.invalid")];
        // A zero byte is '*' in yEnc ((0 + 42) mod 256), which never needs escaping: every article's
        // data lines are the same, made once.
        var lines = new StringBuilder(segmentBytes + (segmentBytes / LineLength + 1) * 2);
        for (var left = segmentBytes; left > 0; left -= LineLength)
            lines.Append('*', Math.Min(LineLength, left)).Append("\r\n");
        EncodedData = Encoding.ASCII.GetBytes(lines.ToString());
        PartCrc32 = Crc32.HashToUInt32(new byte[segmentBytes]);
    }

    public IReadOnlyList<string> MessageIds { get; }

    public int SegmentBytes { get; }

    public long FileSize => (long)MessageIds.Count * SegmentBytes;

    /// <summary>An article's yEnc data lines (the same for every part).</summary>
    public ReadOnlyMemory<byte> EncodedData { get; }

    /// <summary>The CRC-32 of one article's decoded bytes.</summary>
    public uint PartCrc32 { get; }

    public async Task<INntpConnection> ConnectAsync(UsenetProviderOptions provider, TimeProvider time, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(provider);
        var toServer = new Pipe();
        var toClient = new Pipe();
        _responders.Enqueue(Task.Run(() => new WarmupResponder(this, toServer.Reader, toClient.Writer).RunAsync(_stopping), CancellationToken.None));
        var transport = new DuplexPipeStream(toClient.Reader, toServer.Writer);
        return await NntpConnection.OpenAsync(provider, transport, time, NullLogger.Instance, cancellationToken);
    }

    /// <summary>Completes when every session's responder has seen its session end.</summary>
    public Task WhenClosedAsync() => Task.WhenAll(_responders);

    /// <summary>The 1-based part number of <paramref name="messageId"/> (with or without angle brackets), or 0 when it is not one of the file's.</summary>
    public int PartOf(ReadOnlySpan<char> messageId)
    {
        messageId = messageId.Trim().TrimStart('<').TrimEnd('>');
        for (var i = 0; i < MessageIds.Count; i++)
        {
            if (messageId.SequenceEqual(MessageIds[i]))
                return i + 1;
        }

        return 0;
    }
}

using System.Buffers;
using System.Globalization;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Text;
using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Yenc;

namespace NzbDav.MockNntp.Posting;

/// <summary>
/// Posts files to a real NNTP server as yEnc multipart articles (RFC 3977 POST, one article at a
/// time on one session), the way an uploader would, so tests can read back through the product what
/// somebody else's server stored. Encoding is <see cref="YencEncoder"/>, dot-stuffed for the wire.
/// </summary>
public sealed class NntpPoster : IAsyncDisposable
{
    private const int MaxLineLength = 4096;

    private readonly NntpPosterOptions _options;
    private readonly YencEncoderOptions _encoding;
    private readonly Socket _socket;
    private readonly Stream _stream;
    private readonly byte[] _lineBuffer = new byte[MaxLineLength];
    private int _buffered;

    private NntpPoster(NntpPosterOptions options, Socket socket, Stream stream)
    {
        _options = options;
        _encoding = new YencEncoderOptions { LineLength = options.LineLength, DotStuff = true };
        _socket = socket;
        _stream = stream;
    }

    /// <summary>The server's greeting, as the first line it sent.</summary>
    public string Greeting { get; private set; } = "";

    /// <summary>Connects, logs in when a user is given (switching a transit-mode server to reader mode first), and checks that posting is allowed.</summary>
    [System.Diagnostics.CodeAnalysis.SuppressMessage("Security", "CA5359:Do not disable certificate validation",
        Justification = "A test tool posting to a test server with a self-signed certificate.")]
    public static async Task<NntpPoster> ConnectAsync(NntpPosterOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        Stream? stream = null;
        try
        {
            await socket.ConnectAsync(options.Host, options.Port, cancellationToken).ConfigureAwait(false);
            stream = new NetworkStream(socket, ownsSocket: false);
            if (options.UseTls)
            {
                var tls = new SslStream(stream, leaveInnerStreamOpen: false, static (_, _, _, _) => true);
                stream = tls;
                await tls.AuthenticateAsClientAsync(new SslClientAuthenticationOptions { TargetHost = options.Host }, cancellationToken).ConfigureAwait(false);
            }
            var poster = new NntpPoster(options, socket, stream);
            await poster.HandshakeAsync(cancellationToken).ConfigureAwait(false);
            return poster;
        }
        catch
        {
            if (stream is not null)
                await stream.DisposeAsync().ConfigureAwait(false);
            socket.Dispose();
            throw;
        }
    }

    private async Task HandshakeAsync(CancellationToken cancellationToken)
    {
        var greeting = await ReadLineAsync(cancellationToken).ConfigureAwait(false);
        Greeting = greeting;
        Expect(greeting, "greeting", 200, 201);
        if (_options.User is null)
        {
            var mode = await CommandAsync("MODE READER", cancellationToken).ConfigureAwait(false);
            Expect(mode, "MODE READER", 200, 201);
            return;
        }
        var user = await CommandAsync("AUTHINFO USER " + _options.User, cancellationToken).ConfigureAwait(false);
        if (Code(user) is 401 or 502)
        {
            Expect(await CommandAsync("MODE READER", cancellationToken).ConfigureAwait(false), "MODE READER", 200, 201);
            user = await CommandAsync("AUTHINFO USER " + _options.User, cancellationToken).ConfigureAwait(false);
        }
        if (Code(user) == 381)
            user = await CommandAsync("AUTHINFO PASS " + _options.Password, cancellationToken).ConfigureAwait(false);
        Expect(user, "AUTHINFO", 281);
    }

    /// <summary>Posts <paramref name="data"/> as parts of <paramref name="segmentSize"/> bytes with fresh message-ids.</summary>
    /// <param name="fileIndex">0-based position of the file in its post (for the subject's [i/n]).</param>
    public async Task<PostedFile> PostFileAsync(string name, ReadOnlyMemory<byte> data, int segmentSize, int fileIndex, int fileCount, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(segmentSize, 1);
        var total = Math.Max(1, (int)((data.Length + (long)segmentSize - 1) / segmentSize));
        var parts = new List<(int, long, int, string)>(total);
        for (var i = 0; i < total; i++)
        {
            var begin = (long)i * segmentSize;
            parts.Add((i + 1, begin, (int)Math.Min(segmentSize, data.Length - begin), NewMessageId()));
        }
        return await PostPartsAsync(name, data, parts, fileIndex, fileCount, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// Posts the articles of a file a <see cref="MockNntpServer"/> also serves, with the same message-ids
    /// and part boundaries, so the mock can act as a second provider of the same post.
    /// <paramref name="include"/> leaves articles out (to be missing from this server only).
    /// </summary>
    public async Task<PostedFile> PostMockFileAsync(MockFile file, ReadOnlyMemory<byte> data, int fileCount, Func<MockArticle, bool>? include, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(file);
        if (data.Length != file.Size)
            throw new ArgumentException($"'{file.Name}' holds {file.Size} bytes, the data {data.Length}.", nameof(data));
        var parts = file.Articles.Where(a => include?.Invoke(a) ?? true).Select(a => (a.Number, a.PartBegin, a.PartSize, a.MessageId)).ToList();
        var posted = await PostPartsAsync(file.Name, data, parts, file.Index, fileCount, cancellationToken, file.Articles.Count).ConfigureAwait(false);
        return posted;
    }

    private async Task<PostedFile> PostPartsAsync(string name, ReadOnlyMemory<byte> data, IReadOnlyList<(int Number, long Begin, int Size, string MessageId)> parts, int fileIndex, int fileCount, CancellationToken cancellationToken, int? totalParts = null)
    {
        var total = totalParts ?? parts.Count;
        var crc = Crc32Of(data.Span);
        var segments = new List<PostedSegment>(parts.Count);
        var writer = new ArrayBufferWriter<byte>();
        foreach (var (number, begin, size, messageId) in parts)
        {
            writer.ResetWrittenCount();
            var subject = Subject(name, fileIndex, fileCount, number, total);
            writer.Write(Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture,
                $"From: {_options.From}\r\nNewsgroups: {_options.Newsgroup}\r\nSubject: {subject}\r\nMessage-ID: <{messageId}>\r\n\r\n")));
            var headerLength = writer.WrittenCount;
            var spec = new YencPartSpec(name, data.Length, total > 1 ? number : null, total > 1 ? total : null, begin, number == total ? crc : null);
            YencEncoder.Encode(data.Span.Slice((int)begin, size), spec, writer, _encoding);
            var bodyBytes = writer.WrittenCount - headerLength;
            writer.Write(".\r\n"u8);

            var go = await CommandAsync("POST", cancellationToken).ConfigureAwait(false);
            Expect(go, "POST", 340);
            await _stream.WriteAsync(writer.WrittenMemory, cancellationToken).ConfigureAwait(false);
            await _stream.FlushAsync(cancellationToken).ConfigureAwait(false);
            Expect(await ReadLineAsync(cancellationToken).ConfigureAwait(false), $"the article <{messageId}>", 240);
            segments.Add(new PostedSegment(number, bodyBytes, messageId));
        }
        return new PostedFile(name, data.Length, Subject(name, fileIndex, fileCount, 1, total), segments);
    }

    /// <summary>Asks the server for one article's status: true for 223, false for 430.</summary>
    public async Task<bool> StatAsync(string messageId, CancellationToken cancellationToken)
    {
        var answer = await CommandAsync($"STAT <{messageId}>", cancellationToken).ConfigureAwait(false);
        return Code(answer) switch
        {
            223 => true,
            430 => false,
            _ => throw new IOException($"Unexpected answer to STAT: '{answer}'."),
        };
    }

    private static string Subject(string name, int fileIndex, int fileCount, int part, int total) =>
        string.Create(CultureInfo.InvariantCulture, $"[{fileIndex + 1}/{fileCount}] - \"{name}\" yEnc ({part}/{total})");

    private string NewMessageId() =>
        Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(12)) + "@" + _options.MessageIdDomain;

    private static uint Crc32Of(ReadOnlySpan<byte> data) => System.IO.Hashing.Crc32.HashToUInt32(data);

    private async Task<string> CommandAsync(string line, CancellationToken cancellationToken)
    {
        await _stream.WriteAsync(Encoding.UTF8.GetBytes(line + "\r\n"), cancellationToken).ConfigureAwait(false);
        await _stream.FlushAsync(cancellationToken).ConfigureAwait(false);
        return await ReadLineAsync(cancellationToken).ConfigureAwait(false);
    }

    private async Task<string> ReadLineAsync(CancellationToken cancellationToken)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(_options.Timeout);
        while (true)
        {
            var newline = Array.IndexOf(_lineBuffer, (byte)'\n', 0, _buffered);
            if (newline >= 0)
            {
                var end = newline > 0 && _lineBuffer[newline - 1] == '\r' ? newline - 1 : newline;
                var line = Encoding.UTF8.GetString(_lineBuffer, 0, end);
                _buffered -= newline + 1;
                Buffer.BlockCopy(_lineBuffer, newline + 1, _lineBuffer, 0, _buffered);
                return line;
            }
            if (_buffered == _lineBuffer.Length)
                throw new IOException($"The server sent a line longer than {MaxLineLength} bytes.");
            var read = await _stream.ReadAsync(_lineBuffer.AsMemory(_buffered), deadline.Token).ConfigureAwait(false);
            if (read == 0)
                throw new IOException("The server closed the connection.");
            _buffered += read;
        }
    }

    private static int Code(string line) =>
        line.Length >= 3 && int.TryParse(line.AsSpan(0, 3), NumberStyles.None, CultureInfo.InvariantCulture, out var code) ? code : -1;

    private static void Expect(string line, string what, params int[] codes)
    {
        if (Array.IndexOf(codes, Code(line)) < 0)
            throw new IOException($"Unexpected answer to {what}: '{line}' (wanted {string.Join(" or ", codes)}).");
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            using var quick = new CancellationTokenSource(TimeSpan.FromSeconds(2));
            await _stream.WriteAsync("QUIT\r\n"u8.ToArray(), quick.Token).ConfigureAwait(false);
        }
        catch (Exception e) when (e is IOException or OperationCanceledException or ObjectDisposedException or SocketException)
        {
            // Leaving anyway.
        }
        await _stream.DisposeAsync().ConfigureAwait(false);
        _socket.Dispose();
    }
}

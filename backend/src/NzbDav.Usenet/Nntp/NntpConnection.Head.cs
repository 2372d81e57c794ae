using System.Buffers;
using System.Text;

namespace NzbDav.Usenet.Nntp;

public sealed partial class NntpConnection
{
    /// <summary>More header text than this is not an article header.</summary>
    private const int MaxHeaderBytes = 1024 * 1024;

    /// <summary>Reads a 221 answer's header lines: dot-unstuffed, continuation lines unfolded.</summary>
    private async ValueTask<IReadOnlyList<KeyValuePair<string, string>>> ReadHeadersAsync()
    {
        var headers = new List<KeyValuePair<string, string>>();
        long total = 0;
        while (true)
        {
            var result = await _reader.ReadAsync(_shutdown.Token);
            MarkProgress();
            var buffer = result.Buffer;
            var done = false;
            while (!done && TryReadLine(ref buffer, out var line))
            {
                total += line.Length + 2;
                done = AddHeaderLine(headers, line);
            }
            _reader.AdvanceTo(buffer.Start, buffer.End);
            if (done)
            {
                return headers;
            }
            if (total + buffer.Length > MaxHeaderBytes)
            {
                throw new NntpProtocolException($"'{ProviderName}' sent more than {MaxHeaderBytes} bytes of headers.");
            }
            if (result.IsCompleted)
            {
                throw new NntpProtocolException($"'{ProviderName}' closed the connection in the middle of a HEAD answer.");
            }
        }
    }

    /// <summary>Adds one raw line; true at the terminator.</summary>
    private static bool AddHeaderLine(List<KeyValuePair<string, string>> headers, ReadOnlySequence<byte> raw)
    {
        if (raw.Length > 0 && raw.FirstSpan[0] == (byte)'.')
        {
            if (raw.Length == 1)
            {
                return true;
            }
            raw = raw.Slice(1);
        }
        var line = Encoding.UTF8.GetString(raw);
        if (line.Length > 0 && line[0] is ' ' or '\t' && headers.Count > 0)
        {
            // RFC 5322 unfolding: drop the line break, keep the whitespace.
            var last = headers[^1];
            headers[^1] = new(last.Key, last.Value + line);
            return false;
        }
        var colon = line.IndexOf(':');
        if (colon > 0)
        {
            headers.Add(new(line[..colon], line[(colon + 1)..].TrimStart(' ', '\t')));
        }
        return false;
    }
}

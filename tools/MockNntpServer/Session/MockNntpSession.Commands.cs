using System.Globalization;
using System.Net.Sockets;
using NzbDav.MockNntp.Articles;

namespace NzbDav.MockNntp.Session;

internal sealed partial class MockNntpSession
{
    /// <summary>Answers one command; false when the connection must close afterwards.</summary>
    private async ValueTask<bool> ExecuteAsync(string? line, CancellationToken cancellationToken)
    {
        if (line is null)
        {
            await _writer.WriteLineAsync(_transit ? "200 NzbDav mock NNTP server ready (transit mode)" : "200 NzbDav mock NNTP server ready (posting prohibited)", cancellationToken).ConfigureAwait(false);
            return true;
        }
        var space = line.IndexOf(' ');
        var verb = (space < 0 ? line : line[..space]).ToUpperInvariant();
        var argument = space < 0 ? "" : line[(space + 1)..].Trim();
        var kind = Classify(verb, argument);
        _stats.CountCommand(kind);
        if (_transit && TransitAnswer(kind) is { } refusal)
        {
            await _writer.WriteLineAsync(refusal, cancellationToken).ConfigureAwait(false);
            return true;
        }
        if (!_authenticated && kind is not (MockCommandKind.AuthInfo or MockCommandKind.Capabilities or MockCommandKind.ModeReader or MockCommandKind.Quit))
        {
            await _writer.WriteLineAsync("480 authentication required", cancellationToken).ConfigureAwait(false);
            return true;
        }
        switch (kind)
        {
            case MockCommandKind.Capabilities:
                await WriteCapabilitiesAsync(cancellationToken).ConfigureAwait(false);
                return true;
            case MockCommandKind.ModeReader when _transit:
                _transit = false;
                await _writer.WriteLineAsync("201 NzbDav mock NNTP server, reader mode (posting prohibited)", cancellationToken).ConfigureAwait(false);
                return true;
            case MockCommandKind.ModeReader:
                await _writer.WriteLineAsync("201 reader mode, posting prohibited", cancellationToken).ConfigureAwait(false);
                return true;
            case MockCommandKind.AuthInfo:
                await AuthInfoAsync(argument, cancellationToken).ConfigureAwait(false);
                return true;
            case MockCommandKind.Group:
                await _writer.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"211 {ArticleCount()} 1 {ArticleCount()} {argument}"), cancellationToken).ConfigureAwait(false);
                return true;
            case MockCommandKind.Date:
                await _writer.WriteLineAsync("111 " + DateTime.UtcNow.ToString("yyyyMMddHHmmss", CultureInfo.InvariantCulture), cancellationToken).ConfigureAwait(false);
                return true;
            case MockCommandKind.Quit:
                await _writer.WriteLineAsync("205 closing connection", cancellationToken).ConfigureAwait(false);
                return false;
            case MockCommandKind.Body or MockCommandKind.Stat or MockCommandKind.Head or MockCommandKind.Article:
                return await ArticleCommandAsync(kind, argument, cancellationToken).ConfigureAwait(false);
            case MockCommandKind.Control when _options.AllowControl:
                await _writer.WriteLineAsync(Control(argument), cancellationToken).ConfigureAwait(false);
                return true;
            default:
                await _writer.WriteLineAsync("500 unknown command", cancellationToken).ConfigureAwait(false);
                return true;
        }
    }

    /// <summary>
    /// What a transit-mode session says instead of serving <paramref name="kind"/>; null when it serves it.
    /// As INN 2.7 does: STAT and HEAD work for a feeding peer, BODY, ARTICLE, GROUP and DATE do not.
    /// </summary>
    private static string? TransitAnswer(MockCommandKind kind) => kind switch
    {
        MockCommandKind.Body or MockCommandKind.Article or MockCommandKind.Group or MockCommandKind.Date => "401 MODE-READER",
        MockCommandKind.AuthInfo => "502 no login in transit mode; send MODE READER first",
        _ => null,
    };

    private static MockCommandKind Classify(string verb, string argument) => verb switch
    {
        "CAPABILITIES" => MockCommandKind.Capabilities,
        "MODE" when argument.Equals("READER", StringComparison.OrdinalIgnoreCase) => MockCommandKind.ModeReader,
        "AUTHINFO" => MockCommandKind.AuthInfo,
        "GROUP" => MockCommandKind.Group,
        "DATE" => MockCommandKind.Date,
        "BODY" => MockCommandKind.Body,
        "STAT" => MockCommandKind.Stat,
        "HEAD" => MockCommandKind.Head,
        "ARTICLE" => MockCommandKind.Article,
        "QUIT" => MockCommandKind.Quit,
        "XMOCK" => MockCommandKind.Control,
        _ => MockCommandKind.Unknown,
    };

    /// <summary>
    /// <c>XMOCK MISSING &lt;file-index&gt; &lt;first-part&gt; &lt;last-part&gt; ON|OFF</c> (file index 0-based, parts
    /// 1-based inclusive), <c>XMOCK MISSING &lt;message-id&gt; ON|OFF</c>, <c>XMOCK MISSING CLEAR</c>;
    /// <c>XMOCK LATENCY &lt;ms&gt; [&lt;jitter ms&gt;]</c> sets every later answer's delay.
    /// </summary>
    private string Control(string argument)
    {
        var words = argument.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (words.Length is 2 or 3 && words[0].Equals("LATENCY", StringComparison.OrdinalIgnoreCase))
        {
            if (!int.TryParse(words[1], NumberStyles.None, CultureInfo.InvariantCulture, out var latency)
                || !int.TryParse(words.Length == 3 ? words[2] : "0", NumberStyles.None, CultureInfo.InvariantCulture, out var jitter) || jitter > latency)
            {
                return "501 usage: XMOCK LATENCY <milliseconds> [<jitter milliseconds, at most the latency>]";
            }
            _behavior.Latency = TimeSpan.FromMilliseconds(latency);
            _behavior.Jitter = TimeSpan.FromMilliseconds(jitter);
            return string.Create(CultureInfo.InvariantCulture, $"290 latency {latency} ms ± {jitter} ms");
        }
        if (words.Length == 0 || !words[0].Equals("MISSING", StringComparison.OrdinalIgnoreCase))
        {
            return "501 usage: XMOCK MISSING <file-index> <first-part> <last-part> ON|OFF | XMOCK MISSING <message-id> ON|OFF | XMOCK MISSING CLEAR";
        }
        if (words is [_, var clear] && clear.Equals("CLEAR", StringComparison.OrdinalIgnoreCase))
        {
            _store.ClearMissing();
            return "290 missing overrides cleared";
        }
        var on = words[^1].Equals("ON", StringComparison.OrdinalIgnoreCase);
        if (!on && !words[^1].Equals("OFF", StringComparison.OrdinalIgnoreCase))
        {
            return "501 the last word must be ON or OFF";
        }
        if (words.Length == 3)
        {
            if (!_store.TryGetArticle(words[1], out var article))
            {
                return "430 no such article";
            }
            _store.SetMissing(article, on);
            return "290 1 article changed";
        }
        var files = _store.Files;
        if (words.Length != 5
            || !int.TryParse(words[1], NumberStyles.None, CultureInfo.InvariantCulture, out var index) || index >= files.Count
            || !int.TryParse(words[2], NumberStyles.None, CultureInfo.InvariantCulture, out var first)
            || !int.TryParse(words[3], NumberStyles.None, CultureInfo.InvariantCulture, out var last)
            || first < 1 || last < first || last > files[index].Articles.Count)
        {
            return "501 usage: XMOCK MISSING <file-index> <first-part> <last-part> ON|OFF, with an existing file and parts";
        }
        var changed = _store.SetMissing(files[index], first, last, on);
        return string.Create(CultureInfo.InvariantCulture, $"290 {changed} articles changed");
    }

    private long ArticleCount() => _store.Files.Sum(f => (long)f.Articles.Count);

    private async ValueTask WriteCapabilitiesAsync(CancellationToken cancellationToken)
    {
        await _writer.WriteLineAsync("101 capability list follows", cancellationToken).ConfigureAwait(false);
        await _writer.WriteLineAsync("VERSION 2", cancellationToken).ConfigureAwait(false);
        if (_transit)
        {
            await _writer.WriteLineAsync("IHAVE", cancellationToken).ConfigureAwait(false);
            await _writer.WriteLineAsync("MODE-READER", cancellationToken).ConfigureAwait(false);
            await _writer.WriteLineAsync(".", cancellationToken).ConfigureAwait(false);
            return;
        }
        await _writer.WriteLineAsync("READER", cancellationToken).ConfigureAwait(false);
        if (!_authenticated)
        {
            await _writer.WriteLineAsync("AUTHINFO USER", cancellationToken).ConfigureAwait(false);
        }
        await _writer.WriteLineAsync(".", cancellationToken).ConfigureAwait(false);
    }

    private async ValueTask AuthInfoAsync(string argument, CancellationToken cancellationToken)
    {
        var space = argument.IndexOf(' ');
        var sub = (space < 0 ? argument : argument[..space]).ToUpperInvariant();
        var value = space < 0 ? "" : argument[(space + 1)..];
        if (sub == "USER")
        {
            _pendingUser = value;
            await _writer.WriteLineAsync("381 password required", cancellationToken).ConfigureAwait(false);
        }
        else if (sub == "PASS" && _pendingUser is null)
        {
            await _writer.WriteLineAsync("482 authentication commands issued out of sequence", cancellationToken).ConfigureAwait(false);
        }
        else if (sub == "PASS")
        {
            var ok = _options.User is null || (_pendingUser == _options.User && value == _options.Password);
            _pendingUser = null;
            _authenticated |= ok;
            await _writer.WriteLineAsync(ok ? "281 authentication accepted" : "481 authentication failed", cancellationToken).ConfigureAwait(false);
        }
        else
        {
            await _writer.WriteLineAsync("501 unknown AUTHINFO variant", cancellationToken).ConfigureAwait(false);
        }
    }

    private async ValueTask<bool> ArticleCommandAsync(MockCommandKind kind, string argument, CancellationToken cancellationToken)
    {
        if (!_store.TryGetArticle(argument, out var article) || _store.IsMissing(article))
        {
            await _writer.WriteLineAsync("430 no such article", cancellationToken).ConfigureAwait(false);
            return true;
        }
        if (_store.TakeDelay(article) is var delay && delay > TimeSpan.Zero)
        {
            await _writer.FlushAsync(cancellationToken).ConfigureAwait(false);
            await Task.Delay(delay, cancellationToken).ConfigureAwait(false);
        }
        if (Draw(_behavior.StallFraction))
        {
            await _writer.FlushAsync(cancellationToken).ConfigureAwait(false);
            await Task.Delay(_behavior.StallDuration, cancellationToken).ConfigureAwait(false);
            return false;
        }
        var id = "<" + article.MessageId + ">";
        switch (kind)
        {
            case MockCommandKind.Stat:
                await _writer.WriteLineAsync("223 0 " + id, cancellationToken).ConfigureAwait(false);
                return true;
            case MockCommandKind.Head:
                await _writer.WriteLineAsync("221 0 " + id, cancellationToken).ConfigureAwait(false);
                await _writer.WriteAsync(MockArticleFraming.NntpHeaders(article, _postedAt), cancellationToken).ConfigureAwait(false);
                await _writer.WriteLineAsync(".", cancellationToken).ConfigureAwait(false);
                return true;
            case MockCommandKind.Article:
                await _writer.WriteLineAsync("220 0 " + id, cancellationToken).ConfigureAwait(false);
                await _writer.WriteAsync(MockArticleFraming.NntpHeaders(article, _postedAt), cancellationToken).ConfigureAwait(false);
                await _writer.WriteLineAsync("", cancellationToken).ConfigureAwait(false);
                return await WriteBodyAsync(article, cancellationToken).ConfigureAwait(false);
            default:
                await _writer.WriteLineAsync("222 0 " + id, cancellationToken).ConfigureAwait(false);
                return await WriteBodyAsync(article, cancellationToken).ConfigureAwait(false);
        }
    }

    private async ValueTask<bool> WriteBodyAsync(MockArticle article, CancellationToken cancellationToken)
    {
        var data = article.File.EncodeArticle(article);
        if (_store.IsCorrupt(article))
        {
            data = data with { Lines = Corrupt(data.Lines) };
        }
        var claimedFileSize = _store.HasWrongFileSize(article) ? article.File.Size + 1 : (long?)null;
        await _writer.WriteAsync(MockArticleFraming.YencHeader(article, claimedFileSize), cancellationToken).ConfigureAwait(false);
        if (Draw(_behavior.DropFraction))
        {
            await _writer.WriteAsync(data.Lines[..(data.Lines.Length / 2)], cancellationToken).ConfigureAwait(false);
            await _writer.FlushAsync(cancellationToken).ConfigureAwait(false);
            // An abortive close (RST), as a provider dropping the session would look.
            _socket.LingerState = new LingerOption(true, 0);
            _abortiveClose = true;
            return false;
        }
        await _writer.WriteAsync(data.Lines, cancellationToken).ConfigureAwait(false);
        await _writer.WriteAsync(MockArticleFraming.YencTrailer(article.Number, article.PartSize, data.Crc32), cancellationToken).ConfigureAwait(false);
        await _writer.WriteLineAsync(".", cancellationToken).ConfigureAwait(false);
        return true;
    }

    /// <summary>A copy with the first plain data character changed to another plain one: same size, wrong CRC.</summary>
    private static ReadOnlyMemory<byte> Corrupt(ReadOnlyMemory<byte> lines)
    {
        var copy = lines.ToArray();
        var index = Array.FindIndex(copy, b => b is >= (byte)'a' and <= (byte)'y');
        if (index >= 0)
        {
            copy[index]++;
        }
        return copy;
    }

    private bool Draw(double fraction) => fraction > 0 && _faultRandom.NextDouble() < fraction;
}

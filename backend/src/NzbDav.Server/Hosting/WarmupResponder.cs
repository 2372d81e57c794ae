using System.Buffers;
using System.Globalization;
using System.IO.Pipelines;
using System.Text;

namespace NzbDav.Server.Hosting;

/// <summary>
/// The provider's side of one in-memory warm-up session: a greeting, then BODY answered with
/// <see cref="WarmupArticles"/>' yEnc articles (430 for any other id), QUIT with 205, anything else
/// with 500. Only what an <c>NntpConnection</c> sends on the read path is understood.
/// </summary>
internal sealed class WarmupResponder(WarmupArticles articles, PipeReader commands, PipeWriter answers)
{
    public async Task RunAsync(CancellationToken cancellationToken)
    {
        try
        {
            await WriteAsync("200 NzbDav start-up warm-up, posting not allowed\r\n", cancellationToken);
            while (true)
            {
                var result = await commands.ReadAsync(cancellationToken);
                var buffer = result.Buffer;
                var open = true;
                while (open && buffer.PositionOf((byte)'\n') is { } end)
                {
                    var line = Encoding.ASCII.GetString(buffer.Slice(0, end));
                    buffer = buffer.Slice(buffer.GetPosition(1, end));
                    open = await AnswerAsync(line.TrimEnd('\r'), cancellationToken);
                }

                commands.AdvanceTo(buffer.Start, buffer.End);
                if (!open || result.IsCompleted)
                    return;
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The warm-up was stopped: the session ends with the pipes below.
        }
        finally
        {
            await answers.CompleteAsync();
            await commands.CompleteAsync();
        }
    }

    /// <summary>Writes one command's answer; false once the session should end.</summary>
    private async ValueTask<bool> AnswerAsync(string line, CancellationToken cancellationToken)
    {
        var space = line.IndexOf(' ', StringComparison.Ordinal);
        var verb = space < 0 ? line : line[..space];
        var argument = space < 0 ? "" : line[(space + 1)..];
        if (verb.Equals("QUIT", StringComparison.OrdinalIgnoreCase))
        {
            await WriteAsync("205 closing\r\n", cancellationToken);
            return false;
        }

        if (!verb.Equals("BODY", StringComparison.OrdinalIgnoreCase))
        {
            await WriteAsync("500 not understood by the warm-up\r\n", cancellationToken);
            return true;
        }

        var part = articles.PartOf(argument);
        if (part == 0)
        {
            await WriteAsync("430 no such article\r\n", cancellationToken);
            return true;
        }

        var size = articles.SegmentBytes;
        var begin = (long)(part - 1) * size + 1;
        var head = string.Create(CultureInfo.InvariantCulture,
            $"222 0 {argument}\r\n=ybegin part={part} total={articles.MessageIds.Count} line=128 size={articles.FileSize} name={WarmupArticles.FileName}\r\n=ypart begin={begin} end={begin + size - 1}\r\n");
        Encoding.ASCII.GetBytes(head, answers);
        answers.Write(articles.EncodedData.Span);
        await WriteAsync(string.Create(CultureInfo.InvariantCulture, $"=yend size={size} part={part} pcrc32={articles.PartCrc32:x8}\r\n.\r\n"), cancellationToken);
        return true;
    }

    private async ValueTask WriteAsync(string text, CancellationToken cancellationToken)
    {
        Encoding.ASCII.GetBytes(text, answers);
        await answers.FlushAsync(cancellationToken);
    }
}

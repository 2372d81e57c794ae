using System.Diagnostics;
using NzbDav.Usenet.Metrics;

namespace NzbDav.Usenet.Nntp;

public sealed partial class NntpConnection
{
    /// <summary>Reads answers in command order and completes each request; records why it ended by breaking.</summary>
    private async Task ReceiveLoopAsync()
    {
        NntpRequest? current = null;
        try
        {
            var queue = _receiveQueue.Reader;
            while (await queue.WaitToReadAsync(_shutdown.Token).ConfigureAwait(false))
            {
                while (queue.TryRead(out current))
                {
                    await ReceiveAsync(current).ConfigureAwait(false);
                    Finish();
                    current = null;
                }
            }
        }
        catch (Exception e)
        {
            var reason = Break(Translate(e, ProviderName));
            if (current is not null)
            {
                current.Fail(HeadOfLineFailure(reason));
                Finish();
            }
        }
        finally
        {
            // Break completed the queue under the lock, so nothing can be added after this drain.
            var reason = Volatile.Read(ref _breakReason);
            while (reason is not null && _receiveQueue.Reader.TryRead(out var orphan))
            {
                orphan.Fail(BrokenFor(reason));
                Finish();
            }
        }
    }

    /// <summary>Reads one answer. Failures that leave the session in step (430, bad yEnc) fail only the request.</summary>
    private async ValueTask ReceiveAsync(NntpRequest request)
    {
        var status = await ReadStatusLineAsync(_shutdown.Token).ConfigureAwait(false);
        var statusAt = _metrics is null ? 0 : Stopwatch.GetTimestamp();
        var wanted = request.TryStartReceiving();
        switch (request.Kind, status.Code)
        {
            case (NntpCommandKind.Stat, 223):
                Complete(request, true);
                break;
            case (NntpCommandKind.Stat, 430 or 423):
                Complete(request, false);
                break;
            case (NntpCommandKind.Body, 222):
                await ReceiveBodyAsync(request, wanted, statusAt).ConfigureAwait(false);
                break;
            case (NntpCommandKind.Body, 430 or 423):
                CountArticle(request, wanted, ArticleOutcome.Missing, 0, statusAt);
                request.Fail(new NntpArticleNotFoundException(request.MessageId!, ProviderName));
                break;
            case (NntpCommandKind.Quit, _):
                Complete(request, status.Code == 205);
                break;
            default:
                CountArticle(request, wanted, ArticleOutcome.Error, 0, statusAt);
                throw Unexpected(request, status);
        }
    }

    /// <summary>Once per BODY answer the caller still wanted (an abandoned one's bytes are skipped, not decoded).</summary>
    private void CountArticle(NntpRequest request, bool wanted, ArticleOutcome outcome, long decodedBytes, long statusAt)
    {
        if (wanted && request.Kind == NntpCommandKind.Body)
        {
            _metrics?.ArticleEnded(outcome, decodedBytes, request.QueuedAt, statusAt);
        }
    }

    private static void Complete<T>(NntpRequest request, T value) => ((NntpRequest<T>)request).Complete(value);

    private Exception Unexpected(NntpRequest request, NntpStatusLine status) => status.Code switch
    {
        480 => new NntpAuthenticationException($"'{ProviderName}' demanded authentication (480) for {request.Kind}."),
        401 => new NntpProtocolException($"'{ProviderName}' wants a mode change before {request.Kind} ('{status}'); the server is in a mode for news feeds, not for reading."),
        400 or 502 => new NntpServiceUnavailableException(status.Code, status.Text),
        _ => new NntpProtocolException($"Unexpected answer to {request.Kind} from '{ProviderName}': '{status}'."),
    };
}

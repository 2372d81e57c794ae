using System.Buffers;
using NzbDav.Usenet.Metrics;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Nntp;

public sealed partial class NntpConnection
{
    // Handed to the decoder once the part is full: any byte it writes there proves the part is
    // larger than its header said, and the caller's target never sees it.
    private readonly byte[] _overflowProbe = new byte[1];

    /// <summary>
    /// Decodes a 222 answer in place from the pipe's buffers into the caller's target. A yEnc or
    /// target failure skips the rest of the article to its terminator, so the session stays usable.
    /// </summary>
    private async ValueTask ReceiveBodyAsync(NntpRequest request, bool wanted, long statusAt)
    {
        if (!wanted)
        {
            await SkipToTerminatorAsync(NntpTerminatorScanner.AtLineStart()).ConfigureAwait(false);
            return;
        }
        var target = request.Target!;
        var state = default(NntpBodyState);
        _decoder.Reset();
        try
        {
            while (true)
            {
                var result = await _reader.ReadAsync(_shutdown.Token).ConfigureAwait(false);
                MarkProgress();
                var buffer = result.Buffer;
                var completed = DecodeBuffer(buffer, target, ref state, out var consumed);
                if (state.Failure is not null)
                {
                    _reader.AdvanceTo(buffer.GetPosition(consumed));
                    CountArticle(request, wanted, ArticleOutcome.Error, state.Written, statusAt);
                    await SkipToTerminatorAsync(state.ScannerAfterTail()).ConfigureAwait(false);
                    request.Fail(state.Failure);
                    return;
                }
                _reader.AdvanceTo(buffer.GetPosition(consumed));
                if (completed)
                {
                    FinishBody(request, target, state, statusAt);
                    return;
                }
                if (result.IsCompleted)
                {
                    throw new NntpProtocolException($"'{ProviderName}' closed the connection in the middle of article <{request.MessageId}>.") { PeerClosed = true };
                }
            }
        }
        catch when (_metrics is not null && state.Failure is null)
        {
            // The session broke mid-answer; what was decoded still crossed the wire.
            CountArticle(request, wanted, ArticleOutcome.Error, state.Written, statusAt);
            throw;
        }
    }

    private void FinishBody(NntpRequest request, IYencBodyTarget target, NntpBodyState state, long statusAt)
    {
        try
        {
            // The answer was read to its terminator: whatever fails here fails this article only.
            var trailer = _decoder.EnsureValid();
            target.Complete(trailer);
            CountArticle(request, true, ArticleOutcome.Ok, state.Written, statusAt);
            Complete(request, state.Header!);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            CountArticle(request, true, e is Yenc.YencCrcMismatchException ? ArticleOutcome.CrcMismatch : ArticleOutcome.Error, state.Written, statusAt);
            request.Fail(e);
        }
    }

    /// <summary>Feeds every segment of <paramref name="buffer"/> to the decoder; true when the article's terminator was consumed.</summary>
    private bool DecodeBuffer(ReadOnlySequence<byte> buffer, IYencBodyTarget target, ref NntpBodyState state, out long consumed)
    {
        consumed = 0;
        try
        {
            foreach (var segment in buffer)
            {
                var source = segment.Span;
                while (!source.IsEmpty)
                {
                    var destination = state.Header is { } header ? Destination(target, header, state.Written) : [];
                    var status = _decoder.Decode(source, destination, out var used, out var written);
                    if (written > 0)
                    {
                        if (state.Written + written > state.Header!.PartSize)
                        {
                            throw new YencException($"Article holds more than the {state.Header.PartSize} bytes its header announces.");
                        }
                        target.Advance(written);
                        state.Written += written;
                    }
                    state.Remember(source[..used]);
                    source = source[used..];
                    consumed += used;
                    switch (status)
                    {
                        case YencDecodeStatus.HeaderParsed:
                            state.Header = _decoder.Header!;
                            target.Begin(state.Header);
                            break;
                        case YencDecodeStatus.Completed:
                            return true;
                    }
                }
            }
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            state.Failure = e;
        }
        return false;
    }

    private Span<byte> Destination(IYencBodyTarget target, YencHeader header, long written)
    {
        var remaining = header.PartSize - written;
        if (remaining <= 0)
        {
            return _overflowProbe;
        }
        var span = target.GetSpan();
        if (span.IsEmpty)
        {
            throw new InvalidOperationException("The body target returned no space before the part was complete.");
        }
        return span.Length > remaining ? span[..(int)remaining] : span;
    }

    /// <summary>Reads and drops raw bytes through the ".\r\n" line that ends the current answer.</summary>
    private async ValueTask SkipToTerminatorAsync(NntpTerminatorScanner scanner)
    {
        while (true)
        {
            var result = await _reader.ReadAsync(_shutdown.Token).ConfigureAwait(false);
            MarkProgress();
            if (scanner.TryFind(result.Buffer, out var end))
            {
                _reader.AdvanceTo(end);
                return;
            }
            _reader.AdvanceTo(result.Buffer.End);
            if (result.IsCompleted)
            {
                throw new NntpProtocolException($"'{ProviderName}' closed the connection in the middle of an answer.") { PeerClosed = true };
            }
        }
    }
}

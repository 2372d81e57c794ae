using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Fetching;

/// <summary>
/// One article a consumer wants from a <see cref="FetchGroup"/>: its message-id, its place in the
/// group's order, and what to do with the answer. The group decides everything else (which
/// connection, which provider after a 430 or a corrupt copy, how often to retry, whether to race a
/// straggler) and reports the outcome through the <c>On…</c> members, which it calls from its own
/// loop or from NNTP receive loops, so they must not block. Exactly one of <see cref="OnFound"/>,
/// <see cref="OnMissing"/>, <see cref="OnFailed"/> and <see cref="OnCancelled"/> is called, once,
/// unless the request stops being <see cref="IsWanted"/> first.
/// </summary>
public abstract class ArticleRequest
{
    /// <param name="messageId">The article's message-id, without angle brackets.</param>
    /// <param name="order">Lower is fetched first (a segment index, a submission number).</param>
    /// <param name="command">BODY (the default) or STAT.</param>
    protected ArticleRequest(string messageId, long order, ArticleCommand command = ArticleCommand.Body)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(messageId);
        if (messageId.AsSpan().ContainsAny('\r', '\n'))
        {
            throw new ArgumentException($"Message-id '{messageId.ReplaceLineEndings(" ")}' contains a line break.", nameof(messageId));
        }
        MessageId = messageId;
        Order = order;
        Command = command;
    }

    public string MessageId { get; }

    /// <summary>The group fetches requests in ascending order (ties in submission order).</summary>
    public long Order { get; }

    public ArticleCommand Command { get; }

    /// <summary>The group's bookkeeping for this request; only the group's loop touches it.</summary>
    internal FetchState State { get; } = new();

    /// <summary>
    /// False once the consumer has no use for the article any more (it arrived through a target, left
    /// a read window, failed for good): the group then starts no new attempt for it.
    /// </summary>
    protected internal abstract bool IsWanted { get; }

    /// <summary>
    /// A fresh target for one BODY attempt. Every attempt gets its own, so a retry after a partly
    /// received body never mixes data, and two racing attempts never write to the same place.
    /// </summary>
    protected internal virtual IYencBodyTarget CreateTarget() =>
        throw new InvalidOperationException($"{GetType().Name} asks for a BODY but supplies no target.");

    /// <summary>
    /// The target for one BODY attempt on <paramref name="provider"/>'s connection: a consumer that
    /// checks what arrived after the fact (and may refuse it) needs to know who sent it.
    /// </summary>
    protected internal virtual IYencBodyTarget CreateTarget(string provider) => CreateTarget();

    /// <summary>
    /// Before the request is submitted: <paramref name="provider"/> already delivered a copy the
    /// consumer refused (<paramref name="reason"/>). It counts as that provider's failure, so the
    /// group asks the others first and gives up, naming the reason, once nobody is left to ask.
    /// </summary>
    public void RuleOut(string provider, string reason, Exception? error = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(provider);
        var state = State;
        (state.Failures ??= []).Add(new ProviderFailure(provider, reason, error));
        state.MarkBad(provider);
        state.FailedAttempts++;
    }

    /// <summary>The attempt that decoded into <paramref name="target"/> ended (<paramref name="succeeded"/> when it completed the article).</summary>
    protected internal virtual void OnAttemptEnded(IYencBodyTarget target, bool succeeded)
    {
    }

    /// <summary>
    /// A provider has the article: for BODY, <paramref name="header"/> is the header of the attempt
    /// that completed its target; for STAT it is null.
    /// </summary>
    protected internal abstract void OnFound(YencHeader? header);

    /// <summary>Every provider asked answered 430 (for STAT this is the answer, not an error).</summary>
    protected internal virtual void OnMissing(ArticleMissingException error) => OnFailed(error);

    /// <summary>The group gave up: whether the article exists is unknown (see the exception).</summary>
    protected internal abstract void OnFailed(Exception error);

    /// <summary>The group was stopped before the request was answered.</summary>
    protected internal virtual void OnCancelled()
    {
    }
}

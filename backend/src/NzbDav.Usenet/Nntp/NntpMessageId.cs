namespace NzbDav.Usenet.Nntp;

/// <summary>Message-id checks: callers may pass ids with or without angle brackets; we send them with.</summary>
internal static class NntpMessageId
{
    private const int MaxLength = 250;

    /// <summary>The id without brackets; throws <see cref="ArgumentException"/> for ids no server could accept.</summary>
    public static string Normalize(string messageId)
    {
        ArgumentNullException.ThrowIfNull(messageId);
        var id = messageId.Length >= 2 && messageId[0] == '<' && messageId[^1] == '>' ? messageId[1..^1] : messageId;
        if (id.Length is 0 or > MaxLength)
        {
            throw new ArgumentException($"A message-id must have 1 to {MaxLength} characters; got {id.Length}.", nameof(messageId));
        }
        foreach (var c in id)
        {
            // RFC 3977: printable US-ASCII only; '<' and '>' would confuse the bracket framing.
            if (c is < '!' or > '~' or '<' or '>')
            {
                throw new ArgumentException($"Message-id '{messageId}' contains a character NNTP does not allow (0x{(int)c:x2}).", nameof(messageId));
            }
        }
        return id;
    }
}

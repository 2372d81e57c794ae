namespace NzbDav.Usenet.Nntp;

/// <summary>
/// Message-id rules, the one place they are written down. RFC 3977 §3.6 (and RFC 5536 §3.1.3):
/// a message-id is 3 to 250 octets of printable US-ASCII, its angle brackets included. NZB files
/// and our callers carry ids without the brackets; we send them with.
/// </summary>
internal static class NntpMessageId
{
    /// <summary>The longest message-id a command may carry, angle brackets included.</summary>
    public const int MaxWireLength = 250;

    /// <summary>The longest id without its angle brackets: the form NZB files and callers use.</summary>
    public const int MaxLength = MaxWireLength - 2;

    /// <summary>The id without brackets; throws <see cref="ArgumentException"/> for ids no server could accept.</summary>
    public static string Normalize(string messageId)
    {
        ArgumentNullException.ThrowIfNull(messageId);
        var id = messageId.Length >= 2 && messageId[0] == '<' && messageId[^1] == '>' ? messageId[1..^1] : messageId;
        if (id.Length is 0 or > MaxLength)
        {
            throw new ArgumentException($"A message-id must have 1 to {MaxLength} characters between its angle brackets; got {id.Length}.", nameof(messageId));
        }
        if (!IsValid(id))
        {
            throw new ArgumentException($"Message-id '{messageId}' contains a character NNTP does not allow.", nameof(messageId));
        }
        return id;
    }

    /// <summary>True for an id without brackets of 1 to <see cref="MaxLength"/> printable US-ASCII characters other than '&lt;' and '&gt;'.</summary>
    public static bool IsValid(ReadOnlySpan<char> id)
    {
        if (id.IsEmpty || id.Length > MaxLength)
        {
            return false;
        }
        foreach (var c in id)
        {
            // Printable US-ASCII only; '<' and '>' would confuse the bracket framing, and anything
            // else could end or extend the command line the id is written into.
            if (c is < '!' or > '~' or '<' or '>')
            {
                return false;
            }
        }
        return true;
    }
}

namespace NzbDav.Usenet.Nzb;

// Message-id rules. Ids go verbatim into NNTP command lines (BODY <id>), so anything
// that could end or extend that line (CR, LF, spaces, brackets) is refused here rather than sent.
internal static class NzbMessageId
{
    // RFC 3977 §3.6 caps a message-id at 250 octets including its two angle brackets.
    public const int MaxLength = 248;

    // Trims whitespace and removes one pair of surrounding angle brackets.
    public static ReadOnlySpan<char> Normalize(ReadOnlySpan<char> raw)
    {
        var id = raw.Trim();
        if (id.Length >= 2 && id[0] == '<' && id[^1] == '>')
            id = id[1..^1].Trim();
        return id;
    }

    // True for 1..248 printable US-ASCII characters without angle brackets.
    public static bool IsValid(ReadOnlySpan<char> id)
    {
        if (id.IsEmpty || id.Length > MaxLength)
            return false;
        foreach (var c in id)
        {
            if (c is < '!' or > '~' or '<' or '>')
                return false;
        }

        return true;
    }
}

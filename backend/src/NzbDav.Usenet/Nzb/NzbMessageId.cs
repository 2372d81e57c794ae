namespace NzbDav.Usenet.Nzb;

// How an NZB writes a message-id: surrounding whitespace and, now and then, the angle brackets
// NNTP puts around it. What a valid id is (and how long it may be) is NntpMessageId's to say.
internal static class NzbMessageId
{
    // Trims whitespace and removes one pair of surrounding angle brackets.
    public static ReadOnlySpan<char> Normalize(ReadOnlySpan<char> raw)
    {
        var id = raw.Trim();
        if (id.Length >= 2 && id[0] == '<' && id[^1] == '>')
            id = id[1..^1].Trim();
        return id;
    }
}

namespace NzbDav.MockNntp.Articles;

/// <summary>One posted article: a yEnc part of a <see cref="MockFile"/>.</summary>
public sealed class MockArticle
{
    internal MockArticle(MockFile file, string messageId, int number, long partBegin, int partSize, long encodedSize)
    {
        File = file;
        MessageId = messageId;
        Number = number;
        PartBegin = partBegin;
        PartSize = partSize;
        EncodedSize = encodedSize;
    }

    /// <summary>The file this article is a part of.</summary>
    public MockFile File { get; }

    /// <summary>The message-id without angle brackets.</summary>
    public string MessageId { get; }

    /// <summary>1-based part number (the NZB segment number).</summary>
    public int Number { get; }

    /// <summary>Zero-based offset of the part's first decoded byte in the file.</summary>
    public long PartBegin { get; }

    /// <summary>Decoded bytes in this part.</summary>
    public int PartSize { get; }

    /// <summary>Bytes of the yEnc body as sent (header, data lines, trailer; the NZB <c>bytes</c> value).</summary>
    public long EncodedSize { get; }
}

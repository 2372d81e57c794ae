namespace NzbDav.Usenet.Yenc;

/// <summary>Why <see cref="YencDecoder.Decode"/> returned.</summary>
public enum YencDecodeStatus
{
    /// <summary>All of the source was consumed; the article continues in the next read.</summary>
    NeedMoreData,

    /// <summary>The header line(s) were just consumed and <see cref="YencDecoder.Header"/> is set; nothing was written.</summary>
    HeaderParsed,

    /// <summary>The destination is full and more decoded bytes follow; call again with more space.</summary>
    DestinationFull,

    /// <summary>The terminating ".\r\n" line was consumed; nothing after it was.</summary>
    Completed,
}

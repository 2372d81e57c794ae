namespace NzbDav.Usenet.Nzb;

/// <summary>One Usenet article of an NZB file.</summary>
/// <param name="Number">The 1-based part number within the file.</param>
/// <param name="Bytes">The article's encoded size as the NZB states it (informational; decoded sizes come from yEnc headers).</param>
/// <param name="MessageId">The message-id without angle brackets.</param>
public readonly record struct NzbSegment(int Number, long Bytes, string MessageId);

namespace NzbDav.MockNntp.Posting;

/// <summary>One article as posted: its part number, encoded size (the NZB's <c>bytes</c>) and message-id (without brackets).</summary>
public sealed record PostedSegment(int Number, long Bytes, string MessageId);

/// <summary>A file as posted, enough to write its NZB entry.</summary>
public sealed record PostedFile(string Name, long Size, string Subject, IReadOnlyList<PostedSegment> Segments);

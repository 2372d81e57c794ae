namespace NzbDav.Streaming;

/// <summary>
/// The yEnc part headers of a file do not describe it consistently: a byte range no segment
/// covers (the NZB lacks a part), parts that overlap, or a part that disagrees with the file size.
/// </summary>
public sealed class SegmentLayoutException(string message) : IOException(message);

namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>One whole-file GET: bytes received, time from request to last byte, and the XxHash3 of the body.</summary>
internal sealed record WholeFileGet(long Bytes, TimeSpan Elapsed, ulong Hash);

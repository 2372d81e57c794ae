using Microsoft.Extensions.Logging;

namespace NzbDav.Streaming;

/// <summary>The streaming layer's log messages (event ids 5001–5099).</summary>
internal static partial class StreamLog
{
    // "kept a reader waiting" is what the soak picks out of the server's log to explain a long wait.
    [LoggerMessage(EventId = 5001, Level = LogLevel.Warning, Message = "A read kept a reader waiting {ElapsedMs} ms at offset {Offset} of the file starting <{FileKey}> ({Copied} bytes served): {WaitedMs} ms waiting on fetches in {Waits} wait(s), {State}")]
    public static partial void SlowRead(ILogger logger, long elapsedMs, long offset, string fileKey, int copied, long waitedMs, int waits, string state);
}

using Microsoft.Extensions.Logging;

namespace NzbDav.Usenet.Fetching;

/// <summary>Source-generated log messages of the fetch engine.</summary>
internal static partial class FetchLog
{
    [LoggerMessage(EventId = 4001, Level = LogLevel.Debug, Message = "Fetching <{MessageId}> on {Provider} failed ({Outcome}); fetching it again elsewhere")]
    public static partial void AttemptFailed(ILogger logger, string messageId, string provider, FetchOutcome outcome, Exception? error);

    [LoggerMessage(EventId = 4002, Level = LogLevel.Warning, Message = "Article <{MessageId}> could not be fetched (last from {Provider}): {Reason}")]
    public static partial void GaveUp(ILogger logger, string messageId, string provider, string reason);

    [LoggerMessage(EventId = 4003, Level = LogLevel.Debug, Message = "Article <{MessageId}> is late ({ElapsedMs} ms); racing it on another connection")]
    public static partial void StragglerRaced(ILogger logger, string messageId, long elapsedMs);

    [LoggerMessage(EventId = 4004, Level = LogLevel.Warning, Message = "Could not lease a connection")]
    public static partial void LeaseFailed(ILogger logger, Exception? error);

    [LoggerMessage(EventId = 4007, Level = LogLevel.Debug, Message = "One more connection was not available: {Reason}")]
    public static partial void ExtraLeaseUnavailable(ILogger logger, string? reason);

    [LoggerMessage(EventId = 4008, Level = LogLevel.Warning, Message = "Article <{MessageId}> has kept a reader waiting {WaitedMs} ms: attempts [{Attempts}], {Races} race(s), {Failed} failed try(s), racer: {Racer}; the group holds {Connections} connection(s), {Free} with a free slot")]
    public static partial void SlowRead(ILogger logger, string messageId, long waitedMs, string attempts, int races, int failed, string racer, int connections, int free);

    [LoggerMessage(EventId = 4009, Level = LogLevel.Warning, Message = "Article <{MessageId}> was served after it kept a reader waiting {WaitedMs} ms: by {Served}, {Races} race(s), {Failed} failed try(s), last racer: {Racer}; races last weighed {RaceCheck}")]
    public static partial void SlowReadEnded(ILogger logger, string messageId, long waitedMs, string served, int races, int failed, string racer, string raceCheck);

    [LoggerMessage(EventId = 4010, Level = LogLevel.Debug, Message = "Article <{MessageId}> may be fetched from a block account: {Reason}")]
    public static partial void BlockAllowed(ILogger logger, string messageId, string reason);

    [LoggerMessage(EventId = 4005, Level = LogLevel.Error, Message = "A fetch group failed; its unanswered requests fail with it")]
    public static partial void GroupFailed(ILogger logger, Exception error);

    [LoggerMessage(EventId = 4006, Level = LogLevel.Debug, Message = "Returning a connection to {Provider} failed")]
    public static partial void LeaseCloseFailed(ILogger logger, string provider, Exception error);
}

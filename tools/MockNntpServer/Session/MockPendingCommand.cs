namespace NzbDav.MockNntp.Session;

/// <summary>A command line as read (null: the greeting), with the earliest time (Stopwatch ticks) its answer may start.</summary>
internal readonly record struct MockPendingCommand(string? Line, long DueTimestamp);

using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace NzbDav.Server.Tests.WebDav;

/// <summary>Keeps every log entry's message template values, so tests can read what the host logged.</summary>
public sealed class LogCapture : ILoggerProvider
{
    public ConcurrentQueue<IReadOnlyList<KeyValuePair<string, object?>>> Entries { get; } = new();

    /// <summary>Every entry at Warning or above, with its logger's category and the formatted message.</summary>
    public ConcurrentQueue<(LogLevel Level, string Category, string Message, Exception? Exception)> Problems { get; } = new();

    public ILogger CreateLogger(string categoryName) => new Logger(this, categoryName);

    public void Dispose()
    {
    }

    private sealed class Logger(LogCapture owner, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (state is IReadOnlyList<KeyValuePair<string, object?>> values)
                owner.Entries.Enqueue([.. values]);
            if (logLevel >= LogLevel.Warning)
                owner.Problems.Enqueue((logLevel, category, formatter(state, exception), exception));
        }
    }
}

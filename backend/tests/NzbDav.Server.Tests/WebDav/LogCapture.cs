using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace NzbDav.Server.Tests.WebDav;

/// <summary>Keeps every log entry's message template values, so tests can read what the host logged.</summary>
public sealed class LogCapture : ILoggerProvider
{
    public ConcurrentQueue<IReadOnlyList<KeyValuePair<string, object?>>> Entries { get; } = new();

    public ILogger CreateLogger(string categoryName) => new Logger(this);

    public void Dispose()
    {
    }

    private sealed class Logger(LogCapture owner) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (state is IReadOnlyList<KeyValuePair<string, object?>> values)
                owner.Entries.Enqueue([.. values]);
        }
    }
}

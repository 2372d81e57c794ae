using Microsoft.Extensions.Logging;

namespace NzbDav.Server.Tests.Ingestion;

/// <summary>Writes the host's log lines of one category prefix to the test's output, so a run shows where its time went.</summary>
internal sealed class TestOutputLogger(ITestOutputHelper output, string categoryPrefix) : ILoggerProvider
{
    public ILogger CreateLogger(string categoryName) =>
        categoryName.StartsWith(categoryPrefix, StringComparison.Ordinal) ? new Logger(output, categoryName[(categoryName.LastIndexOf('.') + 1)..]) : NullLogger.Instance;

    public void Dispose()
    {
    }

    private sealed class Logger(ITestOutputHelper output, string name) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Information;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            try
            {
                output.WriteLine($"{DateTime.Now:HH:mm:ss.fff} {name}: {formatter(state, exception)}");
            }
            catch (InvalidOperationException)
            {
                // The test already ended; the host is only shutting down.
            }
        }
    }

    private sealed class NullLogger : ILogger
    {
        public static readonly NullLogger Instance = new();

        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => false;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
        }
    }
}

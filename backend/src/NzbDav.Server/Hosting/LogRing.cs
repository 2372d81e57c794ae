using System.Globalization;
using Serilog.Core;
using Serilog.Events;
using Serilog.Formatting.Display;

namespace NzbDav.Server.Hosting;

/// <summary>
/// The last <see cref="Capacity"/> log events, kept in memory for the web UI's Logs page: a Serilog
/// sink in the server's one logging pipeline. Each event is rendered once, when it is written.
/// </summary>
public sealed class LogRing(int capacity = LogRing.DefaultCapacity) : ILogEventSink
{
    public const int DefaultCapacity = 2000;

    private static readonly MessageTemplateTextFormatter MessageOnly = new("{Message:lj}", CultureInfo.InvariantCulture);

    /// <summary>The most start-up warnings kept pinned.</summary>
    public const int StartupCapacity = 50;

    private readonly LogEntry[] _entries = new LogEntry[Math.Max(1, capacity)];
    // Writes are short and never wait on anything; readers copy out under the same lock.
    private readonly Lock _gate = new();
    private long _next;
    // Warnings and errors written before the server finished starting: they would scroll out of the
    // ring under the first minutes' requests, and they are what a new user must read.
    private readonly List<LogEntry> _startup = [];
    private bool _started;

    public int Capacity => _entries.Length;

    public void Emit(LogEvent logEvent)
    {
        ArgumentNullException.ThrowIfNull(logEvent);
        var source = logEvent.Properties.TryGetValue("SourceContext", out var value) && value is ScalarValue { Value: string name } ? name : null;
        using var text = new StringWriter(CultureInfo.InvariantCulture);
        // As the console and the file show it: strings without quotes, structures as JSON.
        MessageOnly.Format(logEvent, text);
        var message = text.ToString();
        lock (_gate)
        {
            var sequence = ++_next;
            var entry = new LogEntry(sequence, logEvent.Timestamp, logEvent.Level.ToString(), source, message, logEvent.Exception?.ToString());
            _entries[sequence % _entries.Length] = entry;
            if (!_started && logEvent.Level >= LogEventLevel.Warning && _startup.Count < StartupCapacity)
                _startup.Add(entry);
        }
    }

    /// <summary>Ends the start-up: warnings written from now on are not pinned.</summary>
    public void MarkStarted()
    {
        lock (_gate)
            _started = true;
    }

    /// <summary>The warnings and errors of the start-up that were not dismissed, oldest first.</summary>
    public IReadOnlyList<LogEntry> StartupWarnings
    {
        get
        {
            lock (_gate)
                return _startup.ToArray();
        }
    }

    /// <summary>Unpins the start-up warnings up to <paramref name="through"/> (they stay in the log); answers how many.</summary>
    public int DismissStartupWarnings(long through)
    {
        lock (_gate)
            return _startup.RemoveAll(e => e.Sequence <= through);
    }

    /// <summary>
    /// Entries after <paramref name="after"/>, at <paramref name="minimum"/> or above, whose message,
    /// source or exception contains <paramref name="search"/> (case-insensitive); oldest first, at most
    /// the newest <paramref name="limit"/>.
    /// </summary>
    public IReadOnlyList<LogEntry> Read(long after, LogEventLevel minimum, string? search, int limit) => Read(after, minimum, null, search, limit);

    /// <summary>As above, and only entries whose source contains <paramref name="source"/> (case-insensitive) when one is given.</summary>
    public IReadOnlyList<LogEntry> Read(long after, LogEventLevel minimum, string? source, string? search, int limit)
    {
        LogEntry[] copy;
        long last;
        lock (_gate)
        {
            last = _next;
            var first = Math.Max(after + 1, last - _entries.Length + 1);
            copy = new LogEntry[Math.Max(0, last - first + 1)];
            for (var sequence = first; sequence <= last; sequence++)
                copy[sequence - first] = _entries[sequence % _entries.Length];
        }

        var matching = copy.Where(e => Enum.Parse<LogEventLevel>(e.Level) >= minimum && FromSource(e, source) && Matches(e, search)).ToList();
        return matching.Count > limit ? matching[^limit..] : matching;
    }

    /// <summary>The sequence number of the newest entry (0 before the first).</summary>
    public long Last
    {
        get
        {
            lock (_gate)
                return _next;
        }
    }

    private static bool FromSource(LogEntry entry, string? source) =>
        string.IsNullOrWhiteSpace(source) || (entry.Source?.Contains(source.Trim(), StringComparison.OrdinalIgnoreCase) ?? false);

    private static bool Matches(LogEntry entry, string? search) =>
        string.IsNullOrWhiteSpace(search)
        || entry.Message.Contains(search, StringComparison.OrdinalIgnoreCase)
        || (entry.Source?.Contains(search, StringComparison.OrdinalIgnoreCase) ?? false)
        || (entry.Exception?.Contains(search, StringComparison.OrdinalIgnoreCase) ?? false);
}

/// <summary>One log event as the Logs page shows it.</summary>
public sealed record LogEntry(long Sequence, DateTimeOffset Timestamp, string Level, string? Source, string Message, string? Exception);

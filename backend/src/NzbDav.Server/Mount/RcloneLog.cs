namespace NzbDav.Server.Mount;

/// <summary>rclone's own log lines, passed on to ours, with the last few kept to say why it stopped.</summary>
internal sealed class RcloneLog(ILogger logger)
{
    private const int Kept = 3;

    private readonly Queue<string> _last = new();
    private readonly Lock _gate = new();

    public async Task ReadAsync(StreamReader reader, CancellationToken cancellationToken)
    {
        while (await reader.ReadLineAsync(cancellationToken) is { } line)
        {
            if (line.Length == 0)
                continue;
            // rclone writes "2026/11/26 02:00:00 ERROR : …", "… NOTICE: …", "… INFO  : …".
            var level = line.Contains(" ERROR ", StringComparison.Ordinal) || line.Contains("CRITICAL", StringComparison.Ordinal) || line.StartsWith("Fatal", StringComparison.Ordinal)
                ? LogLevel.Warning
                : LogLevel.Information;
            logger.Log(level, "rclone: {Line}", line);
            lock (_gate)
            {
                _last.Enqueue(line);
                while (_last.Count > Kept)
                    _last.Dequeue();
            }
        }
    }

    /// <summary>": " and rclone's last lines, or nothing when it said nothing.</summary>
    public string Describe()
    {
        lock (_gate)
            return _last.Count == 0 ? "" : ": " + string.Join(" / ", _last);
    }
}

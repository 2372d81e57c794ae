using System.Collections.Concurrent;
using System.Threading.Channels;

namespace NzbDav.Server.Health.Par2;

/// <summary>One release waiting for, or going through, its PAR2 repair.</summary>
public sealed class Par2RepairTicket(Guid jobId, Guid itemId, string job, bool userAsked, long planned)
{
    private long _done;
    private long _startedAt;
    private long _planned = planned;

    public Guid JobId { get; } = jobId;

    /// <summary>The library file whose state called for the repair (the Sonarr path takes it if PAR2 fails).</summary>
    public Guid ItemId { get; } = itemId;

    public string Job { get; } = job;

    public bool UserAsked { get; } = userAsked;

    /// <summary>Bytes the plan said the repair fetches (0 until planned).</summary>
    public long Planned => Interlocked.Read(ref _planned);

    public void Plan(long bytes) => Interlocked.Exchange(ref _planned, bytes);

    /// <summary>Bytes of slices read so far.</summary>
    public long Done => Interlocked.Read(ref _done);

    /// <summary>When the repair began reading (a timestamp of its time provider), 0 while it waits.</summary>
    public long StartedAt => Interlocked.Read(ref _startedAt);

    public void Started(long timestamp) => Interlocked.Exchange(ref _startedAt, timestamp);

    public void Read(long bytes) => Interlocked.Add(ref _done, bytes);
}

/// <summary>How far a PAR2 repair got: bytes read of those planned, the rate so far and the time it would still take at it.</summary>
public sealed record Par2RepairProgress(Guid JobId, string Job, bool Running, long Done, long Planned, double BytesPerSecond, TimeSpan? Remaining);

/// <summary>
/// The PAR2 repairs to run, one at a time: a repair reads a whole release, so two at once would only
/// share the health-check pool and each take twice as long. A release is queued once however many of
/// its files ask for it. The worker takes them in order; what it holds is in memory, and the files'
/// <c>Repairing</c> state in the database is what brings a repair back after a restart.
/// </summary>
public sealed class Par2Repairs(TimeProvider time)
{
    private readonly Channel<Par2RepairTicket> _channel = Channel.CreateUnbounded<Par2RepairTicket>(new UnboundedChannelOptions { SingleReader = true });
    private readonly ConcurrentDictionary<Guid, Par2RepairTicket> _tickets = new();
    private readonly Lock _idleLock = new();
    private TaskCompletionSource? _idle;
    private Par2RepairTicket? _running;
    private double _lastRate;

    /// <summary>The rate the last repair that read anything ran at (bytes per second), 0 before the first.</summary>
    public double LastBytesPerSecond => Volatile.Read(ref _lastRate);

    /// <summary>Queues <paramref name="ticket"/>'s release; false when it is queued or running already.</summary>
    public bool TryEnqueue(Par2RepairTicket ticket)
    {
        ArgumentNullException.ThrowIfNull(ticket);
        if (!_tickets.TryAdd(ticket.JobId, ticket))
            return false;
        _channel.Writer.TryWrite(ticket);
        return true;
    }

    /// <summary>True while <paramref name="jobId"/>'s repair is queued or running.</summary>
    public bool Contains(Guid jobId) => _tickets.ContainsKey(jobId);

    /// <summary>Every repair queued or running, the running one first.</summary>
    public IReadOnlyList<Par2RepairProgress> Snapshot()
    {
        var running = Volatile.Read(ref _running);
        return _tickets.Values.OrderByDescending(t => ReferenceEquals(t, running)).Select(t => Progress(t, ReferenceEquals(t, running))).ToList();
    }

    /// <summary>The repair of <paramref name="jobId"/>, queued or running; null when there is none.</summary>
    public Par2RepairProgress? Of(Guid jobId) =>
        _tickets.TryGetValue(jobId, out var ticket) ? Progress(ticket, ReferenceEquals(ticket, Volatile.Read(ref _running))) : null;

    /// <summary>Completes when nothing is queued or running (or at once when that is so now).</summary>
    public Task WhenIdleAsync(CancellationToken cancellationToken)
    {
        lock (_idleLock)
        {
            if (_tickets.IsEmpty)
                return Task.CompletedTask;
            _idle ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            return _idle.Task.WaitAsync(cancellationToken);
        }
    }

    internal IAsyncEnumerable<Par2RepairTicket> ReadAllAsync(CancellationToken cancellationToken) => _channel.Reader.ReadAllAsync(cancellationToken);

    internal void Begin(Par2RepairTicket ticket)
    {
        ticket.Started(time.GetTimestamp());
        Volatile.Write(ref _running, ticket);
    }

    internal void End(Par2RepairTicket ticket)
    {
        if (Progress(ticket, running: true).BytesPerSecond is > 0 and var rate)
            Volatile.Write(ref _lastRate, rate);
        Interlocked.CompareExchange(ref _running, null, ticket);
        _tickets.TryRemove(new KeyValuePair<Guid, Par2RepairTicket>(ticket.JobId, ticket));
        TaskCompletionSource? idle = null;
        lock (_idleLock)
        {
            if (_tickets.IsEmpty)
                (idle, _idle) = (_idle, null);
        }

        idle?.TrySetResult();
    }

    private Par2RepairProgress Progress(Par2RepairTicket ticket, bool running)
    {
        var done = ticket.Done;
        var started = ticket.StartedAt;
        var seconds = running && started != 0 ? time.GetElapsedTime(started).TotalSeconds : 0;
        var rate = seconds > 0 ? done / seconds : 0;
        TimeSpan? remaining = rate > 0 ? TimeSpan.FromSeconds(Math.Max(0, ticket.Planned - done) / rate) : null;
        return new Par2RepairProgress(ticket.JobId, ticket.Job, running, done, ticket.Planned, rate, remaining);
    }
}

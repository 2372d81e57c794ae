using System.Collections.Concurrent;
using System.Text;
using System.Text.Json;
using System.Threading.Channels;
using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.Live;

/// <summary>
/// The UI's one push channel (Server-Sent Events). Once per tick, and only while someone listens, a
/// <see cref="DashboardSnapshot"/> is sampled and serialized once; the same bytes go to every
/// subscriber. Each subscriber holds at most <see cref="SubscriberCapacity"/> frames: one that falls
/// that far behind is dropped (its connection is cut; the browser's EventSource reconnects), never
/// buffered without bound.
/// </summary>
public sealed class LiveFeed(DashboardSampler sampler, IOptionsMonitor<NzbDavOptions> options, TimeProvider time, ILogger<LiveFeed> logger)
    : BackgroundService
{
    public const int SubscriberCapacity = 8;
    private static readonly TimeSpan MinimumInterval = TimeSpan.FromMilliseconds(20);

    private readonly ConcurrentDictionary<long, LiveSubscriber> _subscribers = new();
    private TaskCompletionSource _someoneListens = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private byte[]? _latest;
    private long _nextId;
    private long _ticks;
    private long _serializations;
    private long _dropped;
    private volatile bool _idle = true;

    public int SubscriberCount => _subscribers.Count;

    /// <summary>Ticks that had someone listening (and so sampled).</summary>
    public long Ticks => Interlocked.Read(ref _ticks);

    /// <summary>Snapshots serialized: one per tick, whatever the number of subscribers.</summary>
    public long Serializations => Interlocked.Read(ref _serializations);

    /// <summary>Subscribers dropped because they fell <see cref="SubscriberCapacity"/> frames behind.</summary>
    public long Dropped => Interlocked.Read(ref _dropped);

    /// <summary>True while nobody listens: the loop waits and samples nothing.</summary>
    public bool IsIdle => _idle;

    /// <summary>A new subscriber, given the latest frame at once so a dashboard fills without waiting a tick.</summary>
    public LiveSubscriber Subscribe()
    {
        var subscriber = new LiveSubscriber(this, Interlocked.Increment(ref _nextId), SubscriberCapacity);
        _subscribers[subscriber.Id] = subscriber;
        if (Volatile.Read(ref _latest) is { } latest)
            subscriber.TryWrite(latest);
        Volatile.Read(ref _someoneListens).TrySetResult();
        return subscriber;
    }

    internal void Unsubscribe(LiveSubscriber subscriber) => _subscribers.TryRemove(subscriber.Id, out _);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        while (!stoppingToken.IsCancellationRequested)
        {
            var wake = Volatile.Read(ref _someoneListens);
            if (_subscribers.IsEmpty)
            {
                _idle = true;
                await wake.Task.WaitAsync(stoppingToken);
                Interlocked.CompareExchange(ref _someoneListens, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously), wake);
                continue;
            }

            _idle = false;
            var interval = options.CurrentValue.Ui.LiveInterval;
            await Task.Delay(interval < MinimumInterval ? MinimumInterval : interval, time, stoppingToken);
            if (_subscribers.IsEmpty)
                continue;
            Publish(Frame(sampler.Sample()));
        }
    }

    private void Publish(byte[] frame)
    {
        Interlocked.Increment(ref _ticks);
        Interlocked.Increment(ref _serializations);
        Volatile.Write(ref _latest, frame);
        foreach (var subscriber in _subscribers.Values)
        {
            if (!subscriber.TryWrite(frame))
            {
                Interlocked.Increment(ref _dropped);
                logger.LogInformation("Dropped a live dashboard subscriber {Subscriber} that fell {Frames} updates behind", subscriber.Id, SubscriberCapacity);
                subscriber.Drop();
            }
        }
    }

    /// <summary>One SSE message: <c>data: {json}</c> and a blank line. The JSON has no line breaks.</summary>
    private static byte[] Frame(DashboardSnapshot snapshot)
    {
        var json = JsonSerializer.SerializeToUtf8Bytes(snapshot, JsonSerializerOptions.Web);
        var frame = new byte[6 + json.Length + 2];
        Encoding.ASCII.GetBytes("data: ", frame);
        json.CopyTo(frame, 6);
        frame[^2] = (byte)'\n';
        frame[^1] = (byte)'\n';
        return frame;
    }
}

/// <summary>One listener of the <see cref="LiveFeed"/>: a bounded queue of frames and a token cancelled when it is dropped.</summary>
public sealed class LiveSubscriber : IDisposable
{
    private readonly LiveFeed _feed;
    private readonly Channel<byte[]> _frames;
    private readonly CancellationTokenSource _dropped = new();

    internal LiveSubscriber(LiveFeed feed, long id, int capacity)
    {
        _feed = feed;
        Id = id;
        _frames = Channel.CreateBounded<byte[]>(new BoundedChannelOptions(capacity) { SingleReader = true, SingleWriter = true, FullMode = BoundedChannelFullMode.Wait });
    }

    public long Id { get; }

    public ChannelReader<byte[]> Frames => _frames.Reader;

    /// <summary>Cancelled when the feed drops this subscriber for being too slow.</summary>
    public CancellationToken DroppedToken => _dropped.Token;

    internal bool TryWrite(byte[] frame) => _frames.Writer.TryWrite(frame);

    internal void Drop()
    {
        _feed.Unsubscribe(this);
        _frames.Writer.TryComplete();
        _dropped.Cancel();
    }

    public void Dispose()
    {
        _feed.Unsubscribe(this);
        _frames.Writer.TryComplete();
        _dropped.Dispose();
    }
}

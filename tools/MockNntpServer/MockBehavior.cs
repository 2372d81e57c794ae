using System.Diagnostics.CodeAnalysis;

namespace NzbDav.MockNntp;

/// <summary>
/// How the server behaves; tests may change any property while it runs (the next command read or
/// answered sees the new value).
/// </summary>
[SuppressMessage("Design", "CA1001:Types that own disposable fields should be disposable",
    Justification = "The sources are only ever cancelled (no timers, no wait handles); a behaviour is a settings bag made with an object initializer.")]
public sealed class MockBehavior
{
    private readonly Lock _downGate = new();
    private CancellationTokenSource _up = new();
    private bool _down;

    /// <summary>Simulated round trip: an answer starts no earlier than this after its command arrived.</summary>
    public TimeSpan Latency { get; set; }

    /// <summary>Each command's latency is drawn uniformly from <see cref="Latency"/> ± this.</summary>
    public TimeSpan Jitter { get; set; }

    /// <summary>Per-connection send cap in bytes per second; 0 is unlimited.</summary>
    public long BandwidthBytesPerSecond { get; set; }

    /// <summary>Fraction of article commands after which the connection hangs for <see cref="StallDuration"/> (or until the client closes its side), then closes.</summary>
    public double StallFraction { get; set; }

    /// <summary>How long a stalled connection hangs before it is closed.</summary>
    public TimeSpan StallDuration { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Fraction of articles answered with 430 (chosen deterministically from the seed).</summary>
    public double MissingFraction { get; set; }

    /// <summary>Fraction of BODY/ARTICLE answers cut off midway by closing the connection.</summary>
    public double DropFraction { get; set; }

    /// <summary>
    /// The provider is down (an outage): while true, a new connection is closed at once with a reset
    /// and no greeting, and setting it drops every open session the same way (a stall or a body being
    /// sent is cut). Setting it back to false lets new connections in again.
    /// </summary>
    public bool Down
    {
        get
        {
            lock (_downGate)
            {
                return _down;
            }
        }
        set
        {
            CancellationTokenSource? fired = null;
            lock (_downGate)
            {
                if (value == _down)
                {
                    return;
                }
                _down = value;
                if (value)
                {
                    fired = _up;
                }
                else
                {
                    _up = new CancellationTokenSource();
                }
            }
            // Outside the lock: cancelling runs the sessions' registrations synchronously.
            fired?.Cancel();
        }
    }

    /// <summary>Cancelled when the provider goes down; already cancelled while it is down.</summary>
    internal CancellationToken UpToken
    {
        get
        {
            lock (_downGate)
            {
                return _up.Token;
            }
        }
    }
}

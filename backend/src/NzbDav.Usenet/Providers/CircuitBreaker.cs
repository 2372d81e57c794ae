using Microsoft.Extensions.Logging;
using NzbDav.Usenet.Metrics;

namespace NzbDav.Usenet.Providers;

/// <summary>
/// Per-provider breaker. Consecutive connection-level failures (never 430s: a missing article is a
/// normal answer from a healthy provider) open it; after the cooldown exactly one caller is let
/// through as a trial; its success closes the breaker, its failure opens it for another cooldown.
/// </summary>
internal sealed class CircuitBreaker(string providerName, int threshold, TimeSpan cooldown, TimeProvider time, ILogger logger, ProviderMetrics? metrics = null)
{
    private readonly object _gate = new();
    private CircuitState _state;
    private int _failures;
    private DateTimeOffset _retryAt;
    private DateTimeOffset? _failingSince;
    private string? _lastError;
    private DateTimeOffset? _lastErrorAt;
    private long _totalFailures;

    public CircuitState State
    {
        get
        {
            lock (_gate)
            {
                return _state;
            }
        }
    }

    /// <summary>When an open breaker admits its next trial; null while closed.</summary>
    public DateTimeOffset? RetryAt
    {
        get
        {
            lock (_gate)
            {
                return _state == CircuitState.Closed ? null : _retryAt;
            }
        }
    }

    /// <summary>State, failure streak and last error read together, for the dashboard.</summary>
    public BreakerSnapshot Snapshot()
    {
        lock (_gate)
        {
            return new BreakerSnapshot(_state, _state == CircuitState.Closed ? null : _retryAt, _failures, _failingSince, _lastError, _lastErrorAt, _totalFailures);
        }
    }

    /// <summary>
    /// True when the caller may use the provider. The caller must then report exactly one of
    /// <see cref="OnSuccess"/>, <see cref="OnFailure"/> or <see cref="OnNeutral"/>.
    /// </summary>
    public bool TryEnter()
    {
        lock (_gate)
        {
            switch (_state)
            {
                case CircuitState.Closed:
                    return true;
                case CircuitState.Open when time.GetUtcNow() >= _retryAt:
                    _state = CircuitState.HalfOpen; // this caller is the trial
                    return true;
                default:
                    return false;
            }
        }
    }

    public void OnSuccess()
    {
        bool recovered;
        lock (_gate)
        {
            recovered = _state != CircuitState.Closed;
            _state = CircuitState.Closed;
            _failures = 0;
            _failingSince = null;
        }

        if (recovered)
        {
            UsenetLog.BreakerClosed(logger, providerName);
        }
    }

    /// <param name="reason">What went wrong, in words a user can act on; kept as the provider's last error.</param>
    public void OnFailure(string? reason = null)
    {
        int failures;
        lock (_gate)
        {
            var now = time.GetUtcNow();
            failures = ++_failures;
            _totalFailures++;
            _failingSince ??= now;
            _lastError = reason ?? "a session broke while in use";
            _lastErrorAt = now;
            if (_state == CircuitState.Open || (_state == CircuitState.Closed && failures < threshold))
            {
                return;
            }

            _state = CircuitState.Open;
            _retryAt = now + cooldown;
        }

        metrics?.BreakerTripped();
        UsenetLog.BreakerOpened(logger, providerName, failures, cooldown);
    }

    /// <summary>The admitted call ended without telling anything about the provider (cancelled, pool busy).</summary>
    public void OnNeutral()
    {
        lock (_gate)
        {
            if (_state == CircuitState.HalfOpen)
            {
                _state = CircuitState.Open; // the next caller may run the trial at once
                _retryAt = time.GetUtcNow();
            }
        }
    }
}

/// <summary>A breaker as read at one moment.</summary>
/// <param name="State">Whether work goes to the provider.</param>
/// <param name="RetryAt">When an open breaker admits its next trial; null while closed.</param>
/// <param name="ConsecutiveFailures">Failures since the last success.</param>
/// <param name="FailingSince">The first failure of the current streak; null after a success.</param>
/// <param name="LastError">The latest failure in plain words, kept after recovery.</param>
/// <param name="LastErrorAt">When the latest failure happened.</param>
/// <param name="TotalFailures">Connection-level failures since start.</param>
public readonly record struct BreakerSnapshot(
    CircuitState State,
    DateTimeOffset? RetryAt,
    int ConsecutiveFailures,
    DateTimeOffset? FailingSince,
    string? LastError,
    DateTimeOffset? LastErrorAt,
    long TotalFailures);

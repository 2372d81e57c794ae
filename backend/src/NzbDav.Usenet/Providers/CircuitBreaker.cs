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
        }

        if (recovered)
        {
            UsenetLog.BreakerClosed(logger, providerName);
        }
    }

    public void OnFailure()
    {
        int failures;
        lock (_gate)
        {
            failures = ++_failures;
            if (_state == CircuitState.Open || (_state == CircuitState.Closed && failures < threshold))
            {
                return;
            }

            _state = CircuitState.Open;
            _retryAt = time.GetUtcNow() + cooldown;
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

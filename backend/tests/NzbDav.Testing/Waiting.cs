using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace NzbDav.Testing;

/// <summary>
/// Waits for a real condition by polling it until it holds or a deadline passes, then fails the
/// test naming what was awaited, for how long, and the state seen last. The deadline bounds a hung
/// test and is not a timing claim: a condition normally holds within milliseconds. It runs on the
/// real clock on purpose, since a fake one would never reach it. Tests bring it in with
/// <c>using static NzbDav.Testing.Waiting;</c>.
/// </summary>
public static class Waiting
{
    /// <summary>How long a wait lasts when the caller does not say.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(30);

    private static readonly TimeSpan ConditionInterval = TimeSpan.FromMilliseconds(5);

    /// <summary>
    /// Polls <paramref name="condition"/> until it holds, for at most <see cref="DefaultTimeout"/>.
    /// <paramref name="what"/> is the condition's source text unless given.
    /// </summary>
    public static Task WaitUntilAsync(
        Func<bool> condition,
        CancellationToken cancellationToken = default,
        [CallerArgumentExpression(nameof(condition))] string what = "") =>
        WaitUntilAsync(condition, static () => "", DefaultTimeout, cancellationToken, what);

    /// <summary>As above, for at most <paramref name="timeout"/>.</summary>
    public static Task WaitUntilAsync(
        Func<bool> condition,
        TimeSpan timeout,
        CancellationToken cancellationToken = default,
        [CallerArgumentExpression(nameof(condition))] string what = "") =>
        WaitUntilAsync(condition, static () => "", timeout, cancellationToken, what);

    /// <summary>As above; a failure also reports <paramref name="state"/>, read when the deadline has passed.</summary>
    public static Task WaitUntilAsync(
        Func<bool> condition,
        Func<string> state,
        CancellationToken cancellationToken = default,
        [CallerArgumentExpression(nameof(condition))] string what = "") =>
        WaitUntilAsync(condition, state, DefaultTimeout, cancellationToken, what);

    /// <summary>As above, for at most <paramref name="timeout"/>.</summary>
    public static async Task WaitUntilAsync(
        Func<bool> condition,
        Func<string> state,
        TimeSpan timeout,
        CancellationToken cancellationToken = default,
        [CallerArgumentExpression(nameof(condition))] string what = "")
    {
        ArgumentNullException.ThrowIfNull(condition);
        ArgumentNullException.ThrowIfNull(state);
        await PollAsync(_ => Task.FromResult(condition()), held => held, what, timeout, ConditionInterval, _ => state(), cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// Reads with <paramref name="read"/> every <paramref name="interval"/> until
    /// <paramref name="done"/> accepts what it read, and returns that. After
    /// <paramref name="timeout"/> the test fails naming <paramref name="what"/> and, when
    /// <paramref name="describe"/> is given, the last reading.
    /// </summary>
    public static async Task<T> PollAsync<T>(
        Func<CancellationToken, Task<T>> read,
        Func<T, bool> done,
        string what,
        TimeSpan timeout,
        TimeSpan interval,
        Func<T, string>? describe,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(read);
        ArgumentNullException.ThrowIfNull(done);
        var started = Stopwatch.GetTimestamp();
        while (true)
        {
            // The deadline is read before the condition: a reading taken after it passed still counts.
            var expired = Stopwatch.GetElapsedTime(started) >= timeout;
            var value = await read(cancellationToken).ConfigureAwait(false);
            if (done(value))
                return value;
            if (expired)
            {
                var last = describe?.Invoke(value);
                Assert.Fail($"Waited {Seconds(timeout)} for {what}; it did not happen."
                    + (string.IsNullOrEmpty(last) ? "" : " Last seen: " + last));
            }

            await Task.Delay(interval, cancellationToken).ConfigureAwait(false);
        }
    }

    private static string Seconds(TimeSpan span) =>
        span.TotalSeconds.ToString(span.TotalSeconds < 10 ? "0.###" : "0", System.Globalization.CultureInfo.InvariantCulture) + " s";
}

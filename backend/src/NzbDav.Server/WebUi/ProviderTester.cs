using System.Diagnostics;
using System.Net.Sockets;
using System.Security.Authentication;
using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.WebUi;

/// <summary>One step of a provider test: what was tried, whether it worked, how long it took.</summary>
public sealed record UiTestStep(string Step, bool Ok, double Milliseconds, string Detail);

/// <summary>The outcome of testing a provider; <see cref="Error"/> says why it failed.</summary>
public sealed record UiProviderTest(
    bool Ok, string? Error, IReadOnlyList<UiTestStep> Steps, string? Greeting, double? RoundTripMs, int ArticlesProbed, int ArticlesFound, double? ArticlesPerSecond);

/// <summary>
/// Tests a provider's settings without touching the running pools: opens a session of its own the way
/// the pools do (<see cref="NntpConnection.ConnectAsync(UsenetProviderOptions, TimeProvider, ILogger, INntpConnectObserver?, CancellationToken)"/>:
/// connect, TLS under the provider's certificate policy, greeting, login; each step timed for the
/// UI), measures the round trip of a STAT, then STATs
/// articles of the newest job in the library for a moment (pipelined as the provider allows) to
/// show articles per second and how many it has. The test passes when the session works; missing
/// articles are reported, not failed (a backup with other retention may rightly lack them). The
/// session is closed with QUIT at the end.
/// </summary>
public sealed class ProviderTester(IDbContextFactory<NzbDavDbContext> contextFactory, INzbParser parser, TimeProvider time, ILogger<ProviderTester> logger)
{
    /// <summary>The whole test's deadline; a provider that needs longer is not one to stream from.</summary>
    public static readonly TimeSpan Deadline = TimeSpan.FromSeconds(15);

    private static readonly TimeSpan ProbeTime = TimeSpan.FromSeconds(2);
    private const int ProbeArticles = 200;

    public async Task<UiProviderTest> TestAsync(UsenetProviderOptions provider, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(provider);
        provider = provider with { OperationTimeout = TimeSpan.FromSeconds(10), CloseTimeout = TimeSpan.FromSeconds(1) };
        using var timeout = new CancellationTokenSource(Deadline, time);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, timeout.Token);
        var ct = deadline.Token;
        var recorder = new StepRecorder(time, provider.User is not null);
        var steps = recorder.Steps;
        NntpConnection? connection = null;
        string? step = null;
        try
        {
            // The pools' own way in: the same connect, TLS certificate policy, greeting and login.
            connection = await NntpConnection.ConnectAsync(provider, time, logger, recorder, ct);
            long clock;

            step = "round trip";
            var trips = new List<double>(3);
            for (var i = 0; i < 3; i++)
            {
                clock = Stopwatch.GetTimestamp();
                _ = await connection.StatAsync($"nzbdav-test-{Guid.NewGuid():N}@nzbdav.invalid", ct);
                trips.Add(Elapsed(clock));
            }

            trips.Sort();
            var roundTrip = trips[1];
            steps.Add(new UiTestStep("round trip", true, roundTrip, "median of 3 STAT commands"));

            step = "article probe";
            var ids = await SampleMessageIdsAsync(ct);
            int probed = 0, found = 0;
            double? rate = null;
            if (ids.Count == 0)
            {
                steps.Add(new UiTestStep("article probe", true, 0, "skipped: the library has no job to take article IDs from yet"));
            }
            else
            {
                clock = Stopwatch.GetTimestamp();
                (probed, found) = await ProbeAsync(connection, ids, Math.Max(1, provider.PipelineDepth), ct);
                var seconds = Elapsed(clock) / 1000;
                rate = probed / Math.Max(seconds, 0.001);
                // Informative, not a verdict: a backup with other retention may rightly lack them.
                steps.Add(new UiTestStep("article probe", true, Elapsed(clock), found == probed
                    ? $"{found} of {probed} articles of the newest job found, {rate:0} STAT/s"
                    : $"{found} of {probed} articles of the newest job found ({probed - found} missing here), {rate:0} STAT/s"));
            }

            var greeting = connection.Greeting;
            step = null;
            return new UiProviderTest(true, null, steps, greeting, Math.Round(roundTrip, 2), probed, found, rate is null ? null : Math.Round(rate.Value, 1));
        }
        catch (Exception error) when (error is SocketException or IOException or AuthenticationException or NntpException or OperationCanceledException or ArgumentException)
        {
            if (error is OperationCanceledException && cancellationToken.IsCancellationRequested)
            {
                throw;
            }

            // A step of the session's opening failed, or one of the test's own after it.
            step ??= recorder.Current ?? "test";
            var reason = ProviderFaults.Explain(error, provider, Deadline);
            steps.Add(new UiTestStep(step, false, 0, reason));
            return new UiProviderTest(false, $"{step} failed: {reason}", steps, connection?.Greeting ?? recorder.Greeting, null, 0, 0, null);
        }
        finally
        {
            if (connection is not null)
            {
                using var close = new CancellationTokenSource(TimeSpan.FromSeconds(2));
                await connection.CloseAsync(close.Token);
            }

        }
    }

    private static async Task<(int Probed, int Found)> ProbeAsync(NntpConnection connection, IReadOnlyList<string> ids, int depth, CancellationToken cancellationToken)
    {
        using var window = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        window.CancelAfter(ProbeTime);
        int next = -1, probed = 0, found = 0;
        async Task LaneAsync()
        {
            int index;
            while ((index = Interlocked.Increment(ref next)) < ids.Count && !window.IsCancellationRequested)
            {
                var exists = await connection.StatAsync(ids[index], cancellationToken);
                Interlocked.Increment(ref probed);
                if (exists)
                {
                    Interlocked.Increment(ref found);
                }
            }
        }

        await Task.WhenAll(Enumerable.Range(0, Math.Min(depth, ids.Count)).Select(_ => LaneAsync()));
        return (probed, found);
    }

    /// <summary>Message IDs from the newest stored NZB, spread over its files.</summary>
    private async Task<IReadOnlyList<string>> SampleMessageIdsAsync(CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var newest = await context.Jobs.AsNoTracking().OrderByDescending(j => j.AddedAt)
            .Join(context.JobNzbs, j => j.Id, n => n.JobId, (j, n) => n.GzipData)
            .FirstOrDefaultAsync(cancellationToken);
        if (newest is null)
        {
            return [];
        }

        try
        {
            await using var nzb = NzbCompression.OpenRead(newest);
            var document = await parser.ParseAsync(nzb, cancellationToken);
            var ids = new List<string>(ProbeArticles);
            for (var round = 0; ids.Count < ProbeArticles; round++)
            {
                var added = false;
                foreach (var file in document.Files)
                {
                    if (round < file.Segments.Length && ids.Count < ProbeArticles)
                    {
                        ids.Add(file.Segments.Span[round].MessageId);
                        added = true;
                    }
                }

                if (!added)
                {
                    break;
                }
            }

            return ids;
        }
        catch (NzbFormatException)
        {
            return [];
        }
    }

    private static double Elapsed(long started) => Math.Round(Stopwatch.GetElapsedTime(started).TotalMilliseconds, 2);

    /// <summary>
    /// The session's opening as the UI's steps: "connect", "TLS", then the greeting and the login as
    /// one step ("greeting and login", or "greeting" without a user), each with its time.
    /// </summary>
    private sealed class StepRecorder(TimeProvider time, bool logsIn) : INntpConnectObserver
    {
        private long _started;

        public List<UiTestStep> Steps { get; } = [];

        /// <summary>The step under way, null once the session is open.</summary>
        public string? Current { get; private set; }

        public string? Greeting { get; private set; }

        public void Starting(NntpConnectStep step)
        {
            if (step == NntpConnectStep.Login)
                return;
            Current = step switch
            {
                NntpConnectStep.Connect => "connect",
                NntpConnectStep.Tls => "TLS",
                _ => logsIn ? "greeting and login" : "greeting",
            };
            _started = time.GetTimestamp();
        }

        public void Done(NntpConnectStep step, string detail)
        {
            if (step == NntpConnectStep.Greeting)
            {
                Greeting = detail;
                if (logsIn)
                    return;
                detail = "no login configured";
            }

            Steps.Add(new UiTestStep(Current!, true, Math.Round(time.GetElapsedTime(_started).TotalMilliseconds, 2), detail));
            Current = null;
        }
    }
}

using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using NzbDav.MockNntp;
using NzbDav.Server.Mount;
using NzbDav.Tools.Testing.ServeCpu;

namespace NzbDav.Tools.Testing.Crash;

/// <summary>
/// One <c>--test-crash</c> run: an in-process mock provider, the server as a child process killed
/// with SIGKILL once per cycle, and the checks after each kill (see <see cref="CrashArguments.Usage"/>).
/// </summary>
internal sealed partial class CrashRun(CrashOptions options, ILogger logger) : IDisposable
{
    private const int SegmentSize = 20_000;
    private const double StartKillShare = 0.25;
    private const int SigKill = 9;
    private static readonly TimeSpan StartDeadline = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan MountDeadline = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan DrainDeadline = TimeSpan.FromMinutes(3);
    private static readonly TimeSpan FileSystemDeadline = TimeSpan.FromSeconds(10);

    private readonly Random _random = new(options.Seed);
    private readonly CrashLedger _ledger = new();
    private readonly ConcurrentDictionary<string, int> _completions = new(StringComparer.Ordinal);
    private readonly List<string> _startFailures = [];
    private readonly List<string> _mountFailures = [];
    private readonly List<CrashCycle> _cycles = [];
    private readonly HashSet<int> _orphans = [];
    private readonly Lock _outputLock = new();
    private CrashFindings _findings = CrashFindings.None;
    private int _submitted;
    private int _orphansSeen;
    private int _mockPort;
    private readonly List<FileStream> _heldOpen = [];
    private StreamWriter? _output;

    public async Task<CrashReport> RunAsync(CancellationToken cancellationToken)
    {
        var folder = Directory.CreateTempSubdirectory("nzbdav-crash-");
        var data = Directory.CreateDirectory(Path.Combine(folder.FullName, "data")).FullName;
        var mountPath = Path.Combine(folder.FullName, "mnt");
        var credentials = ServeCpuCredentials.New();
        _output = new StreamWriter(Path.Combine(folder.FullName, "server-output.log")) { AutoFlush = true };
        var mock = new MockNntpServer(new MockNntpOptions
        {
            Seed = options.Seed,
            Behavior = new MockBehavior { Latency = TimeSpan.FromMilliseconds(options.LatencyMs), Jitter = TimeSpan.FromMilliseconds(options.LatencyMs / 3.0) },
        });
        try
        {
            await mock.StartAsync(cancellationToken);
            _mockPort = mock.Port;
            logger.LogInformation("Mock NNTP server on 127.0.0.1:{Port}; data in {Data}", mock.Port, data);
            var started = Stopwatch.GetTimestamp();
            CrashStoreSnapshot? last = null;
            for (var cycle = 1; cycle <= options.Cycles; cycle++)
                last = await CycleAsync(cycle, mock, data, mountPath, credentials, last, cancellationToken);
            var (pending, final) = await FinishAsync(data, mountPath, credentials, last, cancellationToken);
            return new CrashReport
            {
                Options = options,
                Cycles = _cycles,
                Elapsed = Stopwatch.GetElapsedTime(started),
                Submitted = _submitted,
                Accepted = _ledger.Accepted,
                Completed = final.Jobs.Count(static j => j.Status == CrashStoredJob.Completed),
                DeletionsAcknowledged = _ledger.DeletionsAcknowledgedCount,
                SettingsSaved = _ledger.SettingsAcknowledgedCount,
                StartFailures = _startFailures,
                MountFailures = _mountFailures,
                OrphanedRclones = _orphansSeen,
                Findings = _findings,
                PendingAtEnd = pending,
                Folder = options.Keep ? folder.FullName : null,
            };
        }
        finally
        {
            await ReleaseHeldAsync();
            await mock.DisposeAsync();
            if (options.Mount)
                await CleanUpMountAsync(mountPath);
            await _output.DisposeAsync();
            if (!options.Keep)
                Delete(folder);
        }
    }

    public void Dispose() => _output?.Dispose();

    /// <summary>Start, check what the last kill left, work, kill; returns the store as the kill left it.</summary>
    private async Task<CrashStoreSnapshot> CycleAsync(
        int cycle, MockNntpServer mock, string data, string mountPath, ServeCpuCredentials credentials, CrashStoreSnapshot? last, CancellationToken cancellationToken)
    {
        var killInStart = _random.NextDouble() < StartKillShare;
        // A start takes about 1-3 s to /health here: a start kill lands anywhere in it (the migration, the warm-up, the mount).
        var killAfter = TimeSpan.FromMilliseconds(killInStart ? _random.Next(200, 3000) : _random.Next(options.MinWorkMs, options.MaxWorkMs + 1));
        var workSeed = _random.Next();
        var serverPid = 0;
        using var killer = new CancellationTokenSource();
        Task? startKill = null;
        ChildProcess? server = null;
        var during = "start";
        double startMs = -1;
        try
        {
            var spawned = Stopwatch.GetTimestamp();
            var starting = StartServerAsync(data, mountPath, credentials, pid =>
            {
                serverPid = pid;
                if (killInStart)
                    startKill = KillLaterAsync(pid, mountPath, killAfter, killer.Token);
            }, cancellationToken);
            try
            {
                Uri root;
                (server, root) = await starting;
                using var client = new CrashClient(root, credentials);
                if (!await WaitHealthyAsync(client, spawned, killInStart, cancellationToken))
                {
                    if (!killInStart)
                        _startFailures.Add($"cycle {cycle}: /health did not answer 200 within {StartDeadline.TotalSeconds:0} s");
                }
                else
                {
                    startMs = Stopwatch.GetElapsedTime(spawned).TotalMilliseconds;
                    if (!killInStart)
                    {
                        await client.LoginAsync(credentials, cancellationToken);
                        if (last is not null)
                            await CheckRestartAsync(cycle, client, mountPath, last, cancellationToken);
                        during = "work";
                        await WorkAsync(client, mock, workSeed, killAfter, serverPid, mountPath, cancellationToken);
                    }
                }
            }
            catch (Exception ex) when (killInStart && ex is InvalidOperationException or TimeoutException or HttpRequestException or TaskCanceledException)
            {
                // Killed before it was ready (it "exited before it was ready"), or mid-request.
            }

            if (startKill is not null)
                await startKill;
        }
        catch (InvalidOperationException ex) when (!killInStart)
        {
            _startFailures.Add($"cycle {cycle}: {ex.Message}");
        }
        catch (TimeoutException ex) when (!killInStart)
        {
            _startFailures.Add($"cycle {cycle}: {ex.Message}");
        }
        finally
        {
            await killer.CancelAsync();
            if (server is not null)
            {
                await server.KillAloneAsync(CancellationToken.None);
                await server.DisposeAsync();
            }
        }

        var snapshot = await CrashStore.ReadAsync(data, cancellationToken);
        var findings = CrashChecker.CheckStore(_ledger.Expectations(), snapshot, _completions);
        _findings = _findings.Add(findings);
        _ledger.Settle(snapshot);
        _cycles.Add(new CrashCycle(cycle, killInStart ? "start" : during, (int)killAfter.TotalMilliseconds, startMs, _ledger.Accepted,
            snapshot.Jobs.Count(static j => j.InQueue), snapshot.Jobs.Count(static j => j.Status == CrashStoredJob.Processing), findings.All.Count()));
        foreach (var problem in findings.All)
            logger.LogError("Cycle {Cycle}: {Problem}", cycle, problem);
        logger.LogInformation("Cycle {Cycle}: killed during {During} after {KillMs} ms; {Accepted} accepted so far, {Queued} in the queue ({Processing} mid-ingestion) at the kill; integrity {Integrity}",
            cycle, killInStart ? "start" : during, (int)killAfter.TotalMilliseconds, _ledger.Accepted, snapshot.Jobs.Count(static j => j.InQueue),
            snapshot.Jobs.Count(static j => j.Status == CrashStoredJob.Processing), snapshot.Integrity);
        return snapshot;
    }

    /// <summary>The last start: it must come up, every job left must complete, and a clean stop must leave no mount behind.</summary>
    private async Task<(int Pending, CrashStoreSnapshot Store)> FinishAsync(
        string data, string mountPath, ServeCpuCredentials credentials, CrashStoreSnapshot? last, CancellationToken cancellationToken)
    {
        var pending = 0;
        var spawned = Stopwatch.GetTimestamp();
        var (server, root) = await StartServerAsync(data, mountPath, credentials, null, cancellationToken);
        try
        {
            using var client = new CrashClient(root, credentials);
            if (!await WaitHealthyAsync(client, spawned, expectKill: false, cancellationToken))
            {
                _startFailures.Add($"final start: /health did not answer 200 within {StartDeadline.TotalSeconds:0} s");
            }
            else
            {
                await client.LoginAsync(credentials, cancellationToken);
                if (last is not null)
                    await CheckRestartAsync(options.Cycles + 1, client, mountPath, last, cancellationToken);
                var drained = Stopwatch.GetTimestamp();
                while ((pending = (await client.QueueAsync(cancellationToken)).Count) > 0 && Stopwatch.GetElapsedTime(drained) < DrainDeadline)
                    await Task.Delay(200, cancellationToken);
            }
        }
        finally
        {
            // SIGTERM: the clean stop a container stop sends.
            await server.DisposeAsync();
        }

        var store = await CrashStore.ReadAsync(data, cancellationToken);
        var findings = CrashChecker.CheckStore(_ledger.Expectations(), store, _completions);
        var unfinished = store.Jobs.Where(static j => j.InQueue).Select(static j => $"{j.NzoId} {j.Name} did not complete after the last start").ToList();
        _findings = _findings.Add(findings).Add(CrashFindings.None with { Failed = unfinished });
        foreach (var problem in findings.All.Concat(unfinished))
            logger.LogError("Final: {Problem}", problem);
        if (options.Mount)
        {
            if (MountPoints.MountedType(mountPath) is { } type)
                _mountFailures.Add($"after the clean stop a {type} mount is still at {mountPath}");
            if (RclonePids(mountPath) is { Count: > 0 } left)
                _mountFailures.Add($"after the clean stop rclone is still running (pid {string.Join(", ", left)})");
        }

        return (pending, store);
    }

    private async Task<(ChildProcess Server, Uri Root)> StartServerAsync(
        string data, string mountPath, ServeCpuCredentials credentials, Action<int>? onStarted, CancellationToken cancellationToken)
    {
        List<string> arguments =
        [
            .. options.ConfigurationArguments,
            "--urls=http://127.0.0.1:0",
            "--NzbDav:DataDirectory=" + data,
            "--NzbDav:ApiKey=" + credentials.ApiKey,
            "--NzbDav:WebDav:User=" + credentials.User,
            "--NzbDav:WebDav:Password=" + credentials.Password,
            "--NzbDav:Ui:AdminUser=" + credentials.User,
            "--NzbDav:Ui:AdminPassword=" + credentials.Password,
            "--NzbDav:Queue:MaxConcurrentJobs=2",
            "--Usenet:Providers:0:Name=mock",
            "--Usenet:Providers:0:Host=127.0.0.1",
            "--Usenet:Providers:0:Port=" + _mockPort.ToString(CultureInfo.InvariantCulture),
            "--Usenet:Providers:0:UseTls=false",
            "--Usenet:Providers:0:MaxConnections=8",
            "--Serilog:WriteTo:0:Name=Console",
            "--Serilog:MinimumLevel:Default=Warning",
            "--Serilog:MinimumLevel:Override:Microsoft.Hosting.Lifetime=Information",
            "--Serilog:MinimumLevel:Override:Microsoft.AspNetCore.DataProtection=Error",
            // Each job's completion is counted from this line: none may complete twice.
            "--Serilog:MinimumLevel:Override:NzbDav.Server.Queue.JobCompletion=Information",
            "--Serilog:MinimumLevel:Override:NzbDav.Server.Queue.IngestionQueueService=Information",
            "--Serilog:MinimumLevel:Override:NzbDav.Server.Mount=Information",
        ];
        if (options.Mount)
            arguments.AddRange(["--Mount:Enabled=true", "--NzbDav:MountPath=" + mountPath]);
        var (server, url) = await ChildProcess.StartAsync(
            "the NzbDav server", options.ServerPath ?? Path.Combine(AppContext.BaseDirectory, "NzbDav.dll"), arguments, data,
            ServeCpuChildren.ListeningUrl, StartDeadline, cancellationToken, OnServerLine, onStarted);
        return (server, new UriBuilder(url) { Path = "/" }.Uri);
    }

    private void OnServerLine(string line)
    {
        lock (_outputLock)
            _output?.WriteLine(line);
        if (CompletedLine().Match(line) is { Success: true } match)
            _completions.AddOrUpdate(match.Groups[1].Value, 1, static (_, n) => n + 1);
    }

    /// <summary>Waits for /health; false when it did not answer 200 in time (or the kill came first, when one is due).</summary>
    private static async Task<bool> WaitHealthyAsync(CrashClient client, long spawned, bool expectKill, CancellationToken cancellationToken)
    {
        while (Stopwatch.GetElapsedTime(spawned) < StartDeadline)
        {
            if (await client.HealthAsync(cancellationToken) is not null)
                return true;
            if (expectKill)
                return false;
            await Task.Delay(50, cancellationToken);
        }

        return false;
    }

    /// <summary>After a restart: the SABnzbd lists match the store at the kill, the settings in effect are the stored ones, and the mount is back.</summary>
    private async Task CheckRestartAsync(int cycle, CrashClient client, string mountPath, CrashStoreSnapshot last, CancellationToken cancellationToken)
    {
        var queue = await client.QueueAsync(cancellationToken);
        var history = (await client.HistoryAsync(cancellationToken)).Select(static h => h.NzoId).ToList();
        var listing = CrashChecker.CheckListing(last, queue, history);
        var settings = await client.SettingsAsync(cancellationToken);
        var stored = last.SettingValues.Count > 0 ? last.SettingValues : [];
        var settingProblems = stored.Count > 0 && !settings.SequenceEqual(stored, StringComparer.Ordinal)
            ? new[] { $"the Settings page shows {string.Join(", ", settings)} after the restart; {string.Join(", ", stored)} was stored" }
            : [];
        var findings = listing with { Settings = settingProblems };
        foreach (var problem in findings.All)
            logger.LogError("Restart {Cycle}: {Problem}", cycle, problem);
        _findings = _findings.Add(findings);
        if (options.Mount)
            await CheckMountAsync(cycle, client, mountPath, cancellationToken);
    }

    private static void Delete(DirectoryInfo folder)
    {
        try
        {
            folder.Delete(recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Left in the system temp directory.
        }
    }

    [GeneratedRegex(@"Completed ""?(SABnzbd_nzo_[a-z0-9]+)")]
    private static partial Regex CompletedLine();

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int Kill(int pid, int signal);
}

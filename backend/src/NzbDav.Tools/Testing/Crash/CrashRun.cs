using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text.Json;
using System.Text.RegularExpressions;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Nzb;
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

    private async Task CheckMountAsync(int cycle, CrashClient client, string mountPath, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        string? state = null;
        while (Stopwatch.GetElapsedTime(started) < MountDeadline)
        {
            if (await client.HealthAsync(cancellationToken) is { } health && health.TryGetProperty("mount", out var mount)
                && (state = mount.GetProperty("state").GetString()) == "mounted")
            {
                break;
            }

            await Task.Delay(100, cancellationToken);
        }

        if (state != "mounted")
        {
            await ReleaseHeldAsync();
            _mountFailures.Add($"restart {cycle}: the mount is '{state}' {MountDeadline.TotalSeconds:0} s after the start");
            return;
        }

        // Through the kernel, with a deadline: a dead FUSE mount can hang a reader.
        var look = Task.Run(() => LookThroughMount(mountPath), cancellationToken);
        if (await Task.WhenAny(look, Task.Delay(FileSystemDeadline, cancellationToken)) != look)
            _mountFailures.Add($"restart {cycle}: reading {mountPath} hung for {FileSystemDeadline.TotalSeconds:0} s");
        else if (await look is { } error)
            _mountFailures.Add($"restart {cycle}: {error}");

        try
        {
            await CheckOrphansAsync(cycle, mountPath, cancellationToken);
        }
        finally
        {
            // The player lets go only now: whatever the orphan was going to do, it had to do it while held.
            await ReleaseHeldAsync();
        }
    }

    private async Task ReleaseHeldAsync()
    {
        foreach (var stream in _heldOpen)
        {
            try
            {
                await stream.DisposeAsync();
            }
            catch (IOException)
            {
                // Its mount's rclone is gone: the close fails, the handle is released all the same.
            }
        }

        _heldOpen.Clear();
    }

    private async Task CheckOrphansAsync(int cycle, string mountPath, CancellationToken cancellationToken)
    {
        foreach (var pid in _orphans.ToList())
        {
            var waited = Stopwatch.GetTimestamp();
            while (IsRcloneOf(pid, mountPath) && Stopwatch.GetElapsedTime(waited) < FileSystemDeadline)
                await Task.Delay(100, cancellationToken);
            if (IsRcloneOf(pid, mountPath))
                _mountFailures.Add($"restart {cycle}: the rclone (pid {pid}) the killed server left is still running");
            else
                _orphans.Remove(pid);
        }
    }

    /// <summary>Null when the mount's folders list and a library file (if any) can be read; else what failed.</summary>
    private static string? LookThroughMount(string mountPath)
    {
        try
        {
            var category = Path.Combine(mountPath, "content", "tv");
            if (!Directory.Exists(Path.Combine(mountPath, "content")))
                return $"{mountPath}/content is not there";
            if (!Directory.Exists(category))
                return null;
            var file = Directory.EnumerateDirectories(category).SelectMany(Directory.EnumerateFiles).FirstOrDefault();
            if (file is null)
                return null;
            using var stream = File.OpenRead(file);
            var buffer = new byte[4096];
            return stream.Read(buffer) > 0 ? null : $"{file} read no bytes through the mount";
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return $"reading through {mountPath} failed: {ex.Message}";
        }
    }

    /// <summary>The clients until the kill: adds, settings saves and deletions at once; the kill ends them mid-request.</summary>
    private async Task WorkAsync(CrashClient client, MockNntpServer mock, int seed, TimeSpan killAfter, int pid, string mountPath, CancellationToken cancellationToken)
    {
        using var work = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var workers = new[]
        {
            Guard(AddLoopAsync(client, mock, new Random(seed), work.Token)),
            Guard(SettingsLoopAsync(client, new Random(seed + 1), work.Token)),
            Guard(DeleteLoopAsync(client, new Random(seed + 2), work.Token)),
        };
        await Task.Delay(killAfter, cancellationToken);
        if (options.Mount)
            await HoldOpenAsync(mountPath, cancellationToken);
        // The kill lands while requests are in flight; the clients stop only after it.
        KillNow(pid, mountPath);
        await work.CancelAsync();
        await Task.WhenAll(workers);
    }

    /// <summary>
    /// A player keeps a library file open through the mount across the kill, as Plex does while it
    /// plays: the old mount cannot go away while it is held, so its rclone outlives the server.
    /// </summary>
    private async Task HoldOpenAsync(string mountPath, CancellationToken cancellationToken)
    {
        var open = Task.Run(() =>
        {
            var category = Path.Combine(mountPath, "content", "tv");
            var file = Directory.Exists(category) ? Directory.EnumerateDirectories(category).SelectMany(Directory.EnumerateFiles).FirstOrDefault() : null;
            if (file is null)
                return null;
            var stream = File.OpenRead(file);
            _ = stream.Read(new byte[4096]);
            return stream;
        }, cancellationToken);
        try
        {
            if (await Task.WhenAny(open, Task.Delay(FileSystemDeadline, cancellationToken)) == open && await open is { } stream)
                _heldOpen.Add(stream);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            logger.LogWarning("Could not open a file through the mount before the kill: {Error}", ex.Message);
        }
    }

    /// <summary>SIGKILL to the server alone; the rclone it runs (with --mount) is noted first, as the orphan the next start must deal with.</summary>
    private void KillNow(int pid, string mountPath)
    {
        if (options.Mount)
        {
            foreach (var rclone in RclonePids(mountPath))
            {
                if (_orphans.Add(rclone))
                    _orphansSeen++;
            }
        }

        _ = Kill(pid, SigKill);
    }

    private async Task KillLaterAsync(int pid, string mountPath, TimeSpan delay, CancellationToken cancellationToken)
    {
        try
        {
            await Task.Delay(delay, cancellationToken);
        }
        catch (OperationCanceledException)
        {
            return;
        }

        KillNow(pid, mountPath);
    }

    private static async Task Guard(Task worker)
    {
        try
        {
            await worker;
        }
        catch (Exception ex) when (ex is HttpRequestException or OperationCanceledException or JsonException or IOException)
        {
            // Cut off by the kill: the ledger keeps the request as unanswered.
        }
    }

    private async Task AddLoopAsync(CrashClient client, MockNntpServer mock, Random random, CancellationToken cancellationToken)
    {
        while (true)
        {
            await Task.Delay(random.Next(50, 400), cancellationToken);
            var name = "Crash.Job." + Interlocked.Increment(ref _submitted).ToString("D5", CultureInfo.InvariantCulture);
            var nzb = Nzb(mock, name, random);
            _ledger.Submitting(name);
            var nzoId = await client.AddFileAsync(nzb, name + ".nzb", cancellationToken);
            if (nzoId is null)
                _ledger.SubmissionRefused(name);
            else
                _ledger.SubmissionAccepted(name, nzoId);
        }
    }

    private async Task SettingsLoopAsync(CrashClient client, Random random, CancellationToken cancellationToken)
    {
        while (true)
        {
            await Task.Delay(random.Next(100, 600), cancellationToken);
            var value = random.Next(1, 1001);
            _ledger.SettingsSending(value);
            if (await client.SaveSettingsAsync(value, cancellationToken))
                _ledger.SettingsAcknowledged(value);
            else
                _ledger.SettingsRefused();
        }
    }

    private async Task DeleteLoopAsync(CrashClient client, Random random, CancellationToken cancellationToken)
    {
        while (true)
        {
            await Task.Delay(random.Next(300, 1200), cancellationToken);
            var deletable = _ledger.Deletable().ToHashSet(StringComparer.Ordinal);
            var kind = (CrashDeletion)random.Next(3);
            if (kind == CrashDeletion.Queue)
            {
                var candidates = (await client.QueueAsync(cancellationToken)).Where(deletable.Contains).ToList();
                if (candidates.Count == 0)
                    continue;
                var nzoId = candidates[random.Next(candidates.Count)];
                _ledger.Deleting(nzoId, kind);
                if (await client.DeleteFromQueueAsync(nzoId, cancellationToken))
                    _ledger.DeletionAcknowledged(nzoId, kind);
                else
                    _ledger.DeletionNotDone(nzoId);
            }
            else
            {
                var candidates = (await client.HistoryAsync(cancellationToken)).Where(h => h.Status == "Completed" && deletable.Contains(h.NzoId)).ToList();
                if (candidates.Count == 0)
                    continue;
                var (nzoId, name, _) = candidates[random.Next(candidates.Count)];
                _ledger.Deleting(nzoId, kind);
                var done = kind == CrashDeletion.History
                    ? await client.RemoveFromHistoryAsync(nzoId, cancellationToken)
                    : await client.DeleteFolderAsync(name, cancellationToken);
                if (done)
                    _ledger.DeletionAcknowledged(nzoId, kind);
                else
                    _ledger.DeletionNotDone(nzoId);
            }
        }
    }

    /// <summary>An NZB of one to three new files on the mock (a few hundred KB each, so ingestion takes long enough to be interrupted).</summary>
    private static byte[] Nzb(MockNntpServer mock, string name, Random random)
    {
        var files = new List<MockFile>();
        var count = random.Next(1, 4);
        for (var k = 1; k <= count; k++)
            files.Add(mock.Store.AddGeneratedFile($"{name}.f{k}.bin", (random.Next(10, 41) * (long)SegmentSize) - random.Next(0, SegmentSize / 2), SegmentSize));
        using var buffer = new MemoryStream();
        MockNzbWriter.Write(buffer, files, name, mock.StartedAt);
        return buffer.ToArray();
    }

    /// <summary>The rclone processes mounting <paramref name="mountPath"/>.</summary>
    internal static List<int> RclonePids(string mountPath)
    {
        var pids = new List<int>();
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && IsRcloneOf(pid, mountPath))
                pids.Add(pid);
        }

        return pids;
    }

    private static bool IsRcloneOf(int pid, string mountPath)
    {
        try
        {
            var arguments = File.ReadAllText($"/proc/{pid}/cmdline").Split('\0');
            // A zombie (killed, not yet reaped by anyone) has an empty command line: it is gone.
            return arguments.Length > 1 && Path.GetFileName(arguments[0]) == "rclone" && arguments.Contains("mount", StringComparer.Ordinal)
                && arguments.Contains(mountPath, StringComparer.Ordinal);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>Whatever a failed check left: rclone processes of this run's mount are killed and the mount detached.</summary>
    private static async Task CleanUpMountAsync(string mountPath)
    {
        foreach (var pid in RclonePids(mountPath))
            _ = Kill(pid, SigKill);
        if (MountPoints.MountedType(mountPath) is not null)
            await MountPoints.UnmountAsync(mountPath, lazy: true, CancellationToken.None);
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

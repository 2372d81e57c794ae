using System.Diagnostics;
using System.Text.Json;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.Server.Health;
using NzbDav.Server.Health.Arr;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Health.Arr;
using NzbDav.Server.Tests.Ingestion;

namespace NzbDav.Server.Tests.Health;

/// <summary>
/// The real host over a primary (and optionally a backup) mock provider holding one release of
/// <see cref="Segments"/> small articles, with a fake Sonarr that grabbed and imported it. The host
/// runs on <see cref="Clock"/>, which only the test moves: a check, the clock past the confirmation
/// delay, and a second check confirm what the first saw, with no waiting.
/// </summary>
internal sealed class HealthHost : IAsyncDisposable
{
    public const int Segments = 200;
    public const int SegmentSize = 1000;
    public const string Release = "Show.S01E01.1080p-GRP";
    public const string FileName = "Show.S01E01.mkv";
    public static readonly TimeSpan ConfirmDelay = TimeSpan.FromMilliseconds(300);
    private static readonly TimeSpan PassDeadline = TimeSpan.FromSeconds(30);

    private readonly TempDirectory _data;
    private readonly FakeTimeProvider? _clock;
    private readonly string[] _args;

    private HealthHost(TempDirectory data, FakeTimeProvider? clock, string[] args, MockNntpServer primary, MockNntpServer? backup, FakeArrServer sonarr, IngestionHost host, byte[] content, byte[] nzb)
    {
        _data = data;
        _clock = clock;
        _args = args;
        Primary = primary;
        Backup = backup;
        Sonarr = sonarr;
        Host = host;
        Content = content;
        Nzb = nzb;
    }

    public MockNntpServer Primary { get; }

    public MockNntpServer? Backup { get; }

    public FakeArrServer Sonarr { get; }

    public IngestionHost Host { get; private set; }

    public byte[] Content { get; }

    public byte[] Nzb { get; }

    /// <summary>The host's data directory.</summary>
    public string DataDirectory => _data.Path;

    public MockFile PrimaryFile => Primary.Store.Files[0];

    public IServiceProvider Services => Host.Server.Services;

    public HealthCheckService Checks => Services.GetRequiredService<HealthCheckService>();

    /// <summary>The host's clock (started at the real time now); the test moves it.</summary>
    public FakeTimeProvider Clock => _clock ?? throw new InvalidOperationException("This host runs on the system clock.");

    /// <summary>The host on a <see cref="Clock"/> of the test's, its scheduler asleep after its first pass.</summary>
    public static Task<HealthHost> StartAsync(bool withBackup, CancellationToken cancellationToken, params string[] configuration) =>
        StartAsync(withBackup, new FakeTimeProvider(DateTimeOffset.UtcNow), cancellationToken, configuration);

    /// <summary>The host on the system clock, for what real time must end (a provider's operation timeout).</summary>
    public static Task<HealthHost> StartOnSystemClockAsync(bool withBackup, CancellationToken cancellationToken, params string[] configuration) =>
        StartAsync(withBackup, null, cancellationToken, configuration);

    /// <summary>
    /// As <see cref="StartAsync(bool, CancellationToken, string[])"/>, the release carrying PAR2 recovery data made by
    /// Debian's par2 (slices of <see cref="Par2SliceSize"/>, <paramref name="redundancyPercent"/> % in one volume).
    /// </summary>
    public static Task<HealthHost> StartWithPar2Async(int redundancyPercent, CancellationToken cancellationToken, params string[] configuration) =>
        StartAsync(false, new FakeTimeProvider(DateTimeOffset.UtcNow), redundancyPercent, configuration, cancellationToken);

    /// <summary>The PAR2 slice size of <see cref="StartWithPar2Async"/>: four segments.</summary>
    public const int Par2SliceSize = 4 * SegmentSize;

    /// <summary>The RAR volumes of <see cref="StartWithRarPar2Async"/>: this many data bytes each (50 segments).</summary>
    public const int RarVolumeBytes = 50 * SegmentSize;

    /// <summary>
    /// As <see cref="StartWithPar2Async"/>, the file stored in RAR volumes of <see cref="RarVolumeBytes"/>
    /// (Show.S01E01.part1.rar …, posted in that order) and the PAR2 set made over the volumes, as a
    /// scene release carries it: the library file lies across the volumes, and the set protects them.
    /// On the system clock, with missing segments confirmed at once (no confirmation delay to wait for).
    /// </summary>
    public static Task<HealthHost> StartWithRarPar2Async(int redundancyPercent, CancellationToken cancellationToken, params string[] configuration) =>
        StartAsync(false, null, redundancyPercent, ["--Health:ConfirmDelay=00:00:00", .. configuration], cancellationToken, inRar: true);

    /// <summary>
    /// As <see cref="StartWithPar2Async"/> (10 %), but the file was posted with one byte wrong at
    /// <paramref name="wrongAt"/>: the PAR2 set describes <see cref="Content"/>, the articles carry the
    /// wrong byte with yEnc CRCs computed over it, so every CRC passes.
    /// </summary>
    public static Task<HealthHost> StartWithPar2PostedWrongAsync(int wrongAt, CancellationToken cancellationToken, params string[] configuration) =>
        StartAsync(false, new FakeTimeProvider(DateTimeOffset.UtcNow), 10, configuration, cancellationToken, postedWrongAt: wrongAt);

    private static Task<HealthHost> StartAsync(bool withBackup, FakeTimeProvider? clock, CancellationToken cancellationToken, params string[] configuration) =>
        StartAsync(withBackup, clock, 0, configuration, cancellationToken);

    private static async Task<HealthHost> StartAsync(
        bool withBackup, FakeTimeProvider? clock, int par2Percent, string[] configuration, CancellationToken cancellationToken, bool inRar = false, int? postedWrongAt = null)
    {
        var output = TestContext.Current.TestOutputHelper;
        var data = new TempDirectory();
        var token = "health" + Guid.NewGuid().ToString("N")[..8];
        var content = new byte[Segments * SegmentSize];
        new Random(7).NextBytes(content);
        var primary = new MockNntpServer(new MockNntpOptions { MessageIdToken = token });
        await primary.StartAsync(cancellationToken);
        if (inRar)
        {
            var volumes = new NzbDav.Archives.Tests.Rar.Rar5TestWriter { DataBytesPerVolume = RarVolumeBytes }
                .Write(new NzbDav.Archives.Tests.Rar.TestFile(FileName, content))
                .Select((bytes, i) => ($"Show.S01E01.part{i + 1}.rar", bytes)).ToList();
            foreach (var (name, bytes) in volumes)
                primary.Store.AddFile(name, bytes, SegmentSize);
            foreach (var (name, bytes) in Par2Files(volumes, par2Percent))
                primary.Store.AddFile(name, bytes, SegmentSize);
        }
        else
        {
            var posted = content;
            if (postedWrongAt is { } at)
            {
                posted = (byte[])content.Clone();
                posted[at] ^= 0x5A;
            }
            primary.Store.AddFile(FileName, posted, SegmentSize);
            if (par2Percent > 0)
            {
                foreach (var (name, bytes) in Par2Files([(FileName, content)], par2Percent))
                    primary.Store.AddFile(name, bytes, SegmentSize);
            }
        }
        MockNntpServer? backup = null;
        List<string> args = [
            "--Health:ConfirmDelay=" + ConfirmDelay.ToString("c", System.Globalization.CultureInfo.InvariantCulture),
            "--Health:MaxMissingPercent=5",
            "--Usenet:Providers:0:MaxConnections=8",
        ];
        if (withBackup)
        {
            backup = new MockNntpServer(new MockNntpOptions { MessageIdToken = token });
            await backup.StartAsync(cancellationToken);
            backup.Store.AddFile(FileName, content, SegmentSize);
            args.AddRange(["--Usenet:Providers:1:Name=backup", "--Usenet:Providers:1:Host=127.0.0.1", "--Usenet:Providers:1:Port=" + backup.Port,
                "--Usenet:Providers:1:UseTls=false", "--Usenet:Providers:1:MaxConnections=4", "--Usenet:Providers:1:Role=BackupOnly"]);
        }
        var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, cancellationToken);
        args.AddRange(["--Arr:Instances:0:Name=sonarr", "--Arr:Instances:0:Kind=Sonarr", "--Arr:Instances:0:Url=" + sonarr.Url,
            "--Arr:Instances:0:ApiKey=" + sonarr.ApiKey]);
        args.AddRange(configuration);
        using var nzb = new MemoryStream();
        primary.WriteNzb(nzb, Release);
        var host = clock is null
            ? await IngestionHost.StartAsync(data.Path, primary.Port, cancellationToken, output, [.. args])
            : await IngestionHost.StartAsync(data.Path, primary.Port, clock, output, cancellationToken, [.. args]);
        var health = new HealthHost(data, clock, [.. args], primary, backup, sonarr, host, content, nzb.ToArray());
        // The scheduler's first pass (an empty library) leaves it asleep for a minute of the clock:
        // from here on, only the test's moves of the clock or a read error wake it.
        await health.WaitForPassesAsync(1, cancellationToken);
        return health;
    }

    // par2 create over the files in a scratch directory: the index and one volume.
    private static List<(string Name, byte[] Bytes)> Par2Files(IReadOnlyList<(string Name, byte[] Bytes)> files, int percent)
    {
        using var scratch = new TempDirectory();
        foreach (var (name, bytes) in files)
            File.WriteAllBytes(Path.Combine(scratch.Path, name), bytes);
        Par2Tool.Run(scratch.Path, ["create", "-q", "-q", "-s" + Par2SliceSize, "-r" + percent, "-n1", "Show.S01E01.par2", .. files.Select(f => f.Name)]);
        return Directory.GetFiles(scratch.Path, "*.par2").Order(StringComparer.Ordinal)
            .Select(path => (Path.GetFileName(path), File.ReadAllBytes(path))).ToList();
    }

    /// <summary>Stops the server (what it runs is cancelled) and starts it again on the same data directory, clock and settings.</summary>
    public async Task RestartAsync(CancellationToken cancellationToken)
    {
        await Host.DisposeAsync();
        var output = TestContext.Current.TestOutputHelper;
        Host = _clock is null
            ? await IngestionHost.StartAsync(_data.Path, Primary.Port, cancellationToken, output, _args)
            : await IngestionHost.StartAsync(_data.Path, Primary.Port, _clock, output, cancellationToken, _args);
    }

    /// <summary>Until no PAR2 repair is queued or running.</summary>
    public Task Par2IdleAsync(CancellationToken cancellationToken) =>
        Services.GetRequiredService<NzbDav.Server.Health.Par2.Par2Repairs>().WhenIdleAsync(cancellationToken).WaitAsync(PassDeadline, cancellationToken);

    /// <summary>Until the scheduler has finished <paramref name="passes"/> passes since start.</summary>
    public Task WaitForPassesAsync(long passes, CancellationToken cancellationToken) =>
        WaitUntilAsync(() => Checks.PassesDone >= passes, () => $"the health scheduler finished {Checks.PassesDone} of {passes} passes", cancellationToken);

    /// <summary>Until <see cref="HealthCheckService.ChecksDone"/> reaches <paramref name="checks"/>.</summary>
    public Task WaitForChecksAsync(long checks, CancellationToken cancellationToken) =>
        WaitUntilAsync(() => Checks.ChecksDone >= checks, () => $"{Checks.ChecksDone} of {checks} checks finished", cancellationToken);

    /// <summary>Polls <paramref name="condition"/>; fails with <paramref name="state"/> when it does not hold in time.</summary>
    private static async Task WaitUntilAsync(Func<bool> condition, Func<string> state, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        while (!condition())
        {
            Assert.True(Stopwatch.GetElapsedTime(started) < PassDeadline, $"not within {PassDeadline.TotalSeconds} s: {state()}");
            await Task.Delay(10, cancellationToken);
        }
    }

    /// <summary>Adds the release like Sonarr and waits for its history slot; seeds Sonarr's grab and import of it when it completed.</summary>
    public async Task<(string NzoId, JsonElement Slot)> AddAsync(CancellationToken cancellationToken)
    {
        var slot = await Host.AddAndWaitAsync(Nzb, Release + ".nzb", cancellationToken);
        var nzoId = slot.GetProperty("nzo_id").GetString()!;
        if (slot.GetProperty("status").GetString() == "Completed")
            Sonarr.SeedImportedDownload(nzoId, Release, FileName);
        return (nzoId, slot);
    }

    public async Task<Guid> ItemIdAsync(CancellationToken cancellationToken)
    {
        await using var context = await Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(cancellationToken);
        return await context.DavItems.Where(i => !i.IsDirectory && i.Name == FileName).Select(i => i.Id).SingleAsync(cancellationToken);
    }

    public async Task<FileHealth?> HealthAsync(Guid itemId, CancellationToken cancellationToken)
    {
        await using var context = await Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(cancellationToken);
        return await context.FileHealth.AsNoTracking().FirstOrDefaultAsync(h => h.DavItemId == itemId, cancellationToken);
    }

    public async Task<List<HealthAuditEntry>> AuditAsync(CancellationToken cancellationToken)
    {
        await using var context = await Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(cancellationToken);
        return await context.HealthAudit.AsNoTracking().OrderBy(a => a.Id).ToListAsync(cancellationToken);
    }

    /// <summary>Checks now, then again once the clock has passed the confirmation delay: what a second sighting confirms.</summary>
    public async Task<FileCheckResult> CheckTwiceAsync(Guid itemId, bool full, CancellationToken cancellationToken)
    {
        var first = await Checks.CheckNowAsync(itemId, full, cancellationToken);
        Assert.NotNull(first);
        // Far short of the scheduler's minute of sleep: it stays asleep, the second check is the test's.
        // On the system clock the host confirms at once (StartWithRarPar2Async); on the test's, the clock moves.
        _clock?.Advance(ConfirmDelay);
        var second = await Checks.CheckNowAsync(itemId, full, cancellationToken);
        Assert.NotNull(second);
        return second;
    }

    /// <summary>
    /// Adds the release, makes the <paramref name="runs"/> of parts (1-based, inclusive) disappear
    /// from the primary, and checks the file twice across the confirmation delay; the file's id and
    /// what the second check found.
    /// </summary>
    public async Task<(Guid ItemId, FileCheckResult Result)> AddLoseAndCheckAsync(CancellationToken cancellationToken, params (int First, int Last)[] runs)
    {
        await AddAsync(cancellationToken);
        var itemId = await ItemIdAsync(cancellationToken);
        foreach (var (first, last) in runs)
            SetMissing(Primary, first, last, missing: true);
        return (itemId, await CheckTwiceAsync(itemId, full: true, cancellationToken));
    }

    /// <summary>Parts (1-based, inclusive) answered 430 by <paramref name="server"/>, or served again.</summary>
    public static void SetMissing(MockNntpServer server, int first, int last, bool missing) =>
        server.Store.SetMissing(server.Store.Files[0], first, last, missing);

    public async ValueTask DisposeAsync()
    {
        await Host.DisposeAsync();
        await Sonarr.DisposeAsync();
        if (Backup is not null)
            await Backup.DisposeAsync();
        await Primary.DisposeAsync();
        _data.Dispose();
    }
}

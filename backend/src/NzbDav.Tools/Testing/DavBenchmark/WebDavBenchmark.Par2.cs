using System.Diagnostics;
using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Health;
using NzbDav.Server.Health.Par2;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>A PAR2 repair run beside the concurrent phase's streams: how it ended, how long it took, what it read, and whether the file then read true.</summary>
public sealed record Par2RepairRun(
    long FileBytes, int Articles, int ArticlesLost, string Message, bool Repaired, TimeSpan Elapsed, long BytesRead, long MismatchedBytes)
{
    /// <summary>The repair's read rate, MB/s (10^6 bytes).</summary>
    public double MBps => Elapsed > TimeSpan.Zero ? BytesRead / 1e6 / Elapsed.TotalSeconds : 0;
}

// --par2-repair-mib: a release with PAR2 recovery loses 1 % of its articles, and its repair runs while the streams play.
internal sealed partial class WebDavBenchmark
{
    private const string Par2Job = "par2-release";
    private const string Par2FileName = "Par2.Bench.mkv";
    private const int Par2RedundancyPercent = 5;

    /// <summary>The host settings the repair phase needs: holes confirmed by a second check at once, and no repair before the phase starts one.</summary>
    private IReadOnlyList<string> Par2HostArguments => options.Par2RepairMiB > 0 ? ["--Health:ConfirmDelay=00:00:00", "--Health:Par2Repair=false"] : [];

    /// <summary>
    /// Makes the release (random bytes, and Debian's par2 over them: slices of one article, 5 %),
    /// posts and ingests it, loses 1 % of its articles, spread over the file, and confirms the holes
    /// with two full checks. Answers the library file's id and path, and its article counts.
    /// </summary>
    private async Task<(Guid ItemId, BenchmarkFile File, int Articles, int Lost)> PrepareRepairAsync(BenchmarkHost host, MockBenchmarkServer mock, CancellationToken cancellationToken)
    {
        var size = options.Par2RepairMiB * 1024L * 1024L;
        var slice = options.Mock.SegmentSizeKiB * 1024;
        var files = new List<(string, byte[])>();
        var scratch = Directory.CreateTempSubdirectory("nzbdav-par2-bench-");
        try
        {
            var content = new byte[size];
            new Random(33).NextBytes(content);
            await File.WriteAllBytesAsync(Path.Combine(scratch.FullName, Par2FileName), content, cancellationToken);
            await RunPar2Async(scratch.FullName, cancellationToken,
                "create", "-q", "-q", "-s" + slice, "-r" + Par2RedundancyPercent, "-n1", "Par2.Bench.par2", Par2FileName);
            files.Add((Par2FileName, content));
            foreach (var par2 in Directory.GetFiles(scratch.FullName, "*.par2").Order(StringComparer.Ordinal))
                files.Add((Path.GetFileName(par2), await File.ReadAllBytesAsync(par2, cancellationToken)));
        }
        finally
        {
            scratch.Delete(recursive: true);
        }

        var folder = await host.WaitForCompletedAsync(await host.AddFileAsync(mock.AddFiles(Par2Job, files), Par2Job + ".nzb", cancellationToken), cancellationToken);
        var articles = mock.Parts(Par2FileName);
        var lost = Math.Max(1, articles / 100);
        // Spread over the file, one article each, as a takedown of scattered articles leaves it.
        mock.Lose(Par2FileName, Enumerable.Range(0, lost).Select(i => 1 + (int)(((long)i * articles / lost) + (articles / lost / 2))));
        var file = new BenchmarkFile(folder + Par2FileName, size, mock.ExpectedFor(Par2FileName));

        var contexts = host.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        Guid itemId;
        await using (var context = await contexts.CreateDbContextAsync(cancellationToken))
            itemId = await context.DavItems.Where(i => i.Path == file.Path).Select(i => i.Id).SingleAsync(cancellationToken);
        var checks = host.Services.GetRequiredService<HealthCheckService>();
        await checks.CheckNowAsync(itemId, full: true, cancellationToken);
        var confirmed = await checks.CheckNowAsync(itemId, full: true, cancellationToken);
        if (confirmed is null || confirmed.Missing != lost)
            throw new InvalidOperationException($"The health checks confirmed {confirmed?.Missing.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "no"} lost articles of {Par2FileName}; {lost} were taken away.");
        _logger.LogInformation("PAR2 release: {Size:N0} bytes in {Articles} articles, {Lost} lost and confirmed ({State})", size, articles, lost, confirmed.State);
        return (itemId, file, articles, lost);
    }

    /// <summary>Starts the repair as the UI's button does and waits for it to end; the file is read back over WebDAV once the streams have stopped.</summary>
    private async Task<(string Message, TimeSpan Elapsed, long BytesRead)> RepairAsync(BenchmarkHost host, Guid itemId, CancellationToken cancellationToken)
    {
        var repairs = host.Services.GetRequiredService<Par2Repairs>();
        var started = Stopwatch.GetTimestamp();
        var queued = await host.Services.GetRequiredService<HealthRepairer>().StartPar2Async(itemId, cancellationToken);
        _logger.LogInformation("PAR2 repair started while the streams play: {Message}", queued);
        long read = 0;
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(100));
        var idle = repairs.WhenIdleAsync(cancellationToken);
        while (!idle.IsCompleted)
        {
            read = Math.Max(read, repairs.Snapshot().Sum(p => p.Done));
            await Task.WhenAny(idle, timer.WaitForNextTickAsync(cancellationToken).AsTask());
        }

        await idle;
        var elapsed = Stopwatch.GetElapsedTime(started);
        var contexts = host.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        await using var context = await contexts.CreateDbContextAsync(cancellationToken);
        var row = await context.FileHealth.AsNoTracking().SingleAsync(h => h.DavItemId == itemId, cancellationToken);
        return (row.State == FileHealthState.Healthy ? row.RepairMessage ?? "" : $"{row.State}: {row.RepairMessage}", elapsed, read);
    }

    private async Task<Par2RepairRun> VerifyRepairAsync(
        BenchmarkHost host, BenchmarkFile file, int articles, int lost, (string Message, TimeSpan Elapsed, long BytesRead) repair, CancellationToken cancellationToken)
    {
        var tally = new VerificationTally();
        await new DavReader(host.Http, tally).ReadAsync(file.Path, file.Expected, 0, file.Size, ranged: false, null, cancellationToken);
        var verified = tally.Result();
        var repaired = repair.Message.StartsWith("Repaired with PAR2", StringComparison.Ordinal) && verified.MismatchedBytes == 0;
        var run = new Par2RepairRun(file.Size, articles, lost, repair.Message, repaired, repair.Elapsed, repair.BytesRead, verified.MismatchedBytes);
        _logger.LogInformation("PAR2 repair beside the streams: {Result} in {Seconds:F1} s ({MBps:F1} MB/s read); the file read back {Mismatched} wrong bytes",
            repaired ? "repaired" : "NOT repaired", run.Elapsed.TotalSeconds, run.MBps, run.MismatchedBytes);
        return run;
    }

    private static async Task RunPar2Async(string directory, CancellationToken cancellationToken, params string[] arguments)
    {
        var start = new ProcessStartInfo("par2") { WorkingDirectory = directory, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in arguments)
            start.ArgumentList.Add(argument);
        Process process;
        try
        {
            process = Process.Start(start) ?? throw new InvalidOperationException("par2 did not start.");
        }
        catch (System.ComponentModel.Win32Exception error)
        {
            throw new FullNzbTesterUsageException($"--par2-repair-mib makes its recovery data with Debian's par2, which could not be started ({error.Message}): apt-get install par2.");
        }

        using (process)
        {
            var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
            var errors = process.StandardError.ReadToEndAsync(cancellationToken);
            await process.WaitForExitAsync(cancellationToken);
            if (process.ExitCode != 0)
                throw new InvalidOperationException($"par2 {string.Join(' ', arguments)} exited with {process.ExitCode}: {await errors}{await output}");
        }
    }
}

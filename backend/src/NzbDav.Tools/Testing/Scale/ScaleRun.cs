using System.Diagnostics;
using System.Globalization;
using NzbDav.Data;
using NzbDav.Tools.Testing.DavBenchmark;
using NzbDav.Tools.Testing.ServeCpu;

namespace NzbDav.Tools.Testing.Scale;

/// <summary>
/// One <c>--test-scale</c> run: for each size a fresh data directory, the generated library, the
/// server as a child process on it, and this process as every client. Each call's answer is checked
/// against what was generated (a listing with a child missing is a failed run, not a fast one).
/// </summary>
internal sealed class ScaleRun(ScaleOptions options, ILogger logger)
{
    private const int SabHistoryLimit = 60;
    private const int UiPageSize = 25;
    private static readonly TimeSpan StartDeadline = TimeSpan.FromMinutes(5);

    public async Task<ScaleReport> RunAsync(CancellationToken cancellationToken)
    {
        var sizes = new List<ScaleSizeReport>();
        foreach (var jobs in options.Jobs)
            sizes.Add(await RunSizeAsync(jobs, cancellationToken));
        return new ScaleReport(options, sizes);
    }

    private async Task<ScaleSizeReport> RunSizeAsync(int jobs, CancellationToken cancellationToken)
    {
        var folder = Directory.CreateTempSubdirectory("nzbdav-scale-");
        ChildProcess? server = null;
        try
        {
            var data = Directory.CreateDirectory(Path.Combine(folder.FullName, "data")).FullName;
            var spec = new ScaleLibrarySpec(jobs, options.FilesPerJob, options.FolderSize, options.Queued, options.VideoSegments);
            var (library, reused) = options.LibraryCache is { } cache
                ? await ScaleLibraryCache.CopyAsync(cache, data, spec, cancellationToken)
                : (await ScaleLibrary.GenerateAsync(data, spec, cancellationToken), false);
            var generatedBytes = DatabaseBytes(data);
            logger.LogInformation("{How} {Jobs} jobs ({Files} files) in {Seconds:F1} s: {MB:F1} MB of database",
                reused ? "Copied from the library cache (generated earlier)" : "Generated", jobs, library.Files, library.GenerateTime.TotalSeconds, generatedBytes / 1e6);

            var credentials = ServeCpuCredentials.New();
            var started = Stopwatch.GetTimestamp();
            (server, var root) = await StartServerAsync(data, credentials, ScaleLibrary.Categories(spec), cancellationToken);
            using var client = new ScaleClient(root, credentials);
            await client.WaitHealthyAsync(StartDeadline, cancellationToken);
            var start = Stopwatch.GetElapsedTime(started);
            logger.LogInformation("Server (pid {Pid}) healthy {Ms:F0} ms after its start", server.Id, start.TotalMilliseconds);
            await client.LoginAsync(cancellationToken);

            var first = new Dictionary<string, double>(StringComparer.Ordinal);
            var latency = new Dictionary<string, LatencySummary>(StringComparer.Ordinal);
            foreach (var (key, samples, call) in Calls(client, library))
            {
                if (samples == 0)
                    continue;
                var (firstMs, summary) = await TimeAsync(call, samples, cancellationToken);
                first[key] = firstMs;
                latency[key] = summary;
                logger.LogInformation("{Jobs} jobs, {Call}: first {First:F1} ms, p50 {P50:F1} ms, p99 {P99:F1} ms", jobs, key, firstMs, summary.P50Ms, summary.P99Ms);
            }

            return new ScaleSizeReport
            {
                Jobs = jobs,
                Completed = library.Completed,
                Failed = library.Failed,
                Queued = library.Queued,
                Files = library.Files,
                BigFolderChildren = library.BigFolderJobs,
                History = library.History,
                BigCategoryHistory = library.HistoryJobs.GetValueOrDefault(ScaleLibrary.BigCategory),
                GenerateTime = library.GenerateTime,
                DatabaseBytesGenerated = generatedBytes,
                DatabaseBytes = DatabaseBytes(data),
                Start = start,
                FirstMs = first,
                Latency = latency,
                RssBytes = server.RssBytes(),
                PeakRssBytes = server.PeakRssBytes(),
            };
        }
        catch
        {
            if (server is not null)
                await server.KillAsync(CancellationToken.None);
            throw;
        }
        finally
        {
            if (server is not null)
                await server.DisposeAsync();
            if (options.Keep)
                logger.LogInformation("Kept the {Jobs}-job library in {Folder}", jobs, folder.FullName);
            else
                Delete(folder);
        }
    }

    /// <summary>Each timed call with its sample count and a check of its answer against the library.</summary>
    private IEnumerable<(string Key, int Samples, Func<CancellationToken, Task> Call)> Calls(ScaleClient client, ScaleLibraryInfo library)
    {
        var big = "/content/" + ScaleLibrary.BigCategory + "/";
        yield return (ScaleCalls.PropfindContent, options.Samples, async ct =>
            Expect("PROPFIND " + big, library.BigFolderJobs + 1, await client.PropfindAsync(big, ct)));
        var completed = "/completed/" + ScaleLibrary.BigCategory + "/";
        yield return (ScaleCalls.PropfindCompleted, options.Samples, async ct =>
            Expect("PROPFIND " + completed, library.BigFolderJobs + 1, await client.PropfindAsync(completed, ct)));
        var job = library.SampleJobFolder ?? throw new InvalidOperationException("The library has no completed job.");
        yield return (ScaleCalls.PropfindJob, options.Samples, async ct =>
            Expect("PROPFIND " + job, options.FilesPerJob + 1, await client.PropfindAsync(job, ct)));
        yield return (ScaleCalls.PropfindIds, options.IdsSamples, async ct =>
            Expect("PROPFIND /.ids/", library.Files + 1, await client.PropfindAsync("/.ids/", ct)));
        yield return (ScaleCalls.SabHistory, options.Samples, async ct =>
        {
            using var json = await client.SabAsync($"mode=history&start=0&limit={SabHistoryLimit}&category={ScaleLibrary.BigCategory}", ct);
            var history = json.RootElement.GetProperty("history");
            var total = library.HistoryJobs.GetValueOrDefault(ScaleLibrary.BigCategory);
            Expect("SAB history noofslots", total, history.GetProperty("noofslots").GetInt32());
            Expect("SAB history slots", Math.Min(SabHistoryLimit, total), history.GetProperty("slots").GetArrayLength());
        });
        yield return (ScaleCalls.SabQueue, options.Samples, async ct =>
        {
            using var json = await client.SabAsync("mode=queue&start=0&limit=0", ct);
            var queue = json.RootElement.GetProperty("queue");
            Expect("SAB queue noofslots_total", library.Queued, queue.GetProperty("noofslots_total").GetInt32());
            Expect("SAB queue slots", library.Queued, queue.GetProperty("slots").GetArrayLength());
        });
        yield return (ScaleCalls.UiHistory, options.Samples, async ct =>
        {
            using var json = await client.UiAsync($"/ui/api/history?page=1&pageSize={UiPageSize}&search=&status=all", ct);
            Expect("UI history total", library.History, json.RootElement.GetProperty("total").GetInt32());
            Expect("UI history jobs", Math.Min(UiPageSize, library.History), json.RootElement.GetProperty("jobs").GetArrayLength());
        });
        yield return (ScaleCalls.UiFiles, options.Samples, async ct =>
        {
            using var json = await client.UiAsync("/ui/api/files?path=" + Uri.EscapeDataString(big.TrimEnd('/')), ct);
            Expect("UI files entries", library.BigFolderJobs, json.RootElement.GetProperty("entries").GetArrayLength());
        });
    }

    private static void Expect(string what, long expected, long actual)
    {
        if (expected != actual)
            throw new InvalidDataException($"{what}: the server answered {actual}, the generated library has {expected}.");
    }

    /// <summary>One untimed-in-the-summary first call, then <paramref name="samples"/> timed calls one after another.</summary>
    private static async Task<(double FirstMs, LatencySummary Summary)> TimeAsync(Func<CancellationToken, Task> call, int samples, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        await call(cancellationToken);
        var firstMs = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        var times = new List<double>(samples);
        for (var i = 0; i < samples; i++)
        {
            started = Stopwatch.GetTimestamp();
            await call(cancellationToken);
            times.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        }

        return (firstMs, LatencySummary.From(times));
    }

    private async Task<(ChildProcess Server, Uri Root)> StartServerAsync(
        string dataDirectory, ServeCpuCredentials credentials, IReadOnlyList<string> categories, CancellationToken cancellationToken)
    {
        string[] arguments =
        [
            .. options.ConfigurationArguments,
            "--urls=http://127.0.0.1:0",
            "--NzbDav:DataDirectory=" + dataDirectory,
            "--NzbDav:ApiKey=" + credentials.ApiKey,
            "--NzbDav:WebDav:User=" + credentials.User,
            "--NzbDav:WebDav:Password=" + credentials.Password,
            "--NzbDav:Ui:AdminUser=" + credentials.User,
            "--NzbDav:Ui:AdminPassword=" + credentials.Password,
            .. categories.Select((c, i) => $"--NzbDav:Categories:{i.ToString(CultureInfo.InvariantCulture)}={c}"),
            // Quiet, so logging costs the server next to nothing, but the address it listens on is printed.
            "--Serilog:WriteTo:0:Name=Console",
            "--Serilog:MinimumLevel:Default=Warning",
            "--Serilog:MinimumLevel:Override:Microsoft.Hosting.Lifetime=Information",
            "--Serilog:MinimumLevel:Override:Microsoft.AspNetCore.DataProtection=Error",
        ];
        var (server, url) = await ChildProcess.StartAsync(
            "the NzbDav server", options.ServerPath ?? Path.Combine(AppContext.BaseDirectory, "NzbDav.dll"), arguments, dataDirectory,
            ServeCpuChildren.ListeningUrl, StartDeadline, cancellationToken);
        return (server, new UriBuilder(url) { Path = "/" }.Uri);
    }

    private static long DatabaseBytes(string dataDirectory)
    {
        var database = Path.Combine(dataDirectory, DataServiceCollectionExtensions.DatabaseFileName);
        return new[] { database, database + "-wal", database + "-shm" }.Where(File.Exists).Sum(f => new FileInfo(f).Length);
    }

    private static void Delete(DirectoryInfo folder)
    {
        try
        {
            folder.Delete(recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // A file still held for a moment only leaves a folder in the system temp directory.
        }
    }
}

using System.Diagnostics;
using NzbDav.Usenet.Nzb;

namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>
/// One <c>--test-serve-cpu</c> run: the mock and the server as child processes, this process as the
/// client. CPU times are read from outside the server just before the first measured GET and just
/// after the last, so ingestion, start-up and the warm-up GET are not in the figure.
/// </summary>
internal sealed class ServeCpuRun(ServeCpuOptions options, ILogger logger)
{
    private const string NzbName = "serve-cpu.nzb";

    public async Task<ServeCpuReport> RunAsync(CancellationToken cancellationToken)
    {
        var folder = Directory.CreateTempSubdirectory("nzbdav-serve-cpu-");
        ChildProcess? mock = null;
        ChildProcess? server = null;
        try
        {
            var nzbPath = Path.Combine(folder.FullName, NzbName);
            (mock, var nntpPort) = await ServeCpuChildren.StartMockAsync(options, folder.FullName, nzbPath, cancellationToken);
            logger.LogInformation("Mock NNTP server (pid {Pid}) on 127.0.0.1:{Port}: {SizeMiB} MiB, latency {LatencyMs}±{JitterMs} ms, {Connections} connections",
                mock.Id, nntpPort, options.SizeMiB, options.LatencyMs, options.JitterMs, options.Connections);
            var credentials = ServeCpuCredentials.New();
            var data = Directory.CreateDirectory(Path.Combine(folder.FullName, "data")).FullName;
            (server, var root) = await ServeCpuChildren.StartServerAsync(options, nntpPort, data, credentials, cancellationToken);
            logger.LogInformation("NzbDav server (pid {Pid}) listening on {Root}", server.Id, root);
            using var client = new ServeCpuClient(root, credentials);
            return await MeasureAsync(client, server, mock, nzbPath, cancellationToken);
        }
        catch
        {
            // Whatever failed, no child may outlive the run or wait for a clean stop.
            if (server is not null)
                await server.KillAsync(CancellationToken.None);
            if (mock is not null)
                await mock.KillAsync(CancellationToken.None);
            throw;
        }
        finally
        {
            // The server first, so it never sees its provider go away.
            if (server is not null)
                await server.DisposeAsync();
            if (mock is not null)
                await mock.DisposeAsync();
            Delete(folder);
        }
    }

    private async Task<ServeCpuReport> MeasureAsync(ServeCpuClient client, ChildProcess server, ChildProcess mock, string nzbPath, CancellationToken cancellationToken)
    {
        var nzb = await File.ReadAllBytesAsync(nzbPath, cancellationToken);
        var fileName = SingleFileName(nzb);
        var ingestStarted = Stopwatch.GetTimestamp();
        var path = await client.IngestAsync(nzb, NzbName, cancellationToken) + Uri.EscapeDataString(fileName);
        var ingestion = Stopwatch.GetElapsedTime(ingestStarted);
        logger.LogInformation("Ingested {Nzb} in {ElapsedMs:F0} ms; serving {Path}", NzbName, ingestion.TotalMilliseconds, path);

        var buffers = Enumerable.Range(0, options.Parallel).Select(_ => ServeCpuClient.NewBuffer()).ToArray();
        var warmupCpuBefore = server.CpuTime();
        var warmups = new WholeFileGet[options.WarmupGets];
        for (var i = 0; i < warmups.Length; i++)
        {
            warmups[i] = await client.GetAsync(path, options.FileSize, buffers[0], cancellationToken);
            logger.LogInformation("Warm-up GET {Index}: {Bytes:N0} bytes in {ElapsedMs:F0} ms", i + 1, warmups[i].Bytes, warmups[i].Elapsed.TotalMilliseconds);
        }

        var warmupCpu = server.CpuTime() - warmupCpuBefore;
        var warmup = warmups[0];

        using var self = Process.GetCurrentProcess();
        var serverBefore = server.CpuTime();
        var switchesBefore = server.ContextSwitches();
        var mockBefore = mock.CpuTime();
        var clientBefore = self.TotalProcessorTime;
        var started = Stopwatch.GetTimestamp();
        var gets = await GetAllAsync(client, path, buffers, cancellationToken);
        var elapsed = Stopwatch.GetElapsedTime(started);
        var serverCpu = server.CpuTime() - serverBefore;
        var switches = server.ContextSwitches() - switchesBefore;
        var mockCpu = mock.CpuTime() - mockBefore;
        self.Refresh();
        var clientCpu = self.TotalProcessorTime - clientBefore;

        // The mock's content is the same for every GET of one run, so every body must hash alike.
        var differing = Array.FindIndex([.. warmups, .. gets], g => g.Hash != warmup.Hash);
        if (differing >= 0)
            throw new InvalidDataException($"GET {differing + 1} (warm-up GETs first) returned other bytes than the first GET of {path}.");
        return new ServeCpuReport
        {
            Path = path,
            FileSize = options.FileSize,
            Options = options,
            Ingestion = ingestion,
            WarmupBytes = warmups.Sum(g => g.Bytes),
            WarmupTimes = [.. warmups.Select(g => g.Elapsed)],
            WarmupServerCpu = warmupCpu,
            BytesServed = gets.Sum(g => g.Bytes),
            Elapsed = elapsed,
            GetTimes = [.. gets.Select(g => g.Elapsed)],
            ServerCpu = serverCpu,
            ServerContextSwitches = switches,
            MockCpu = mockCpu,
            ClientCpu = clientCpu,
            ServerPeakRssBytes = server.PeakRssBytes(),
        };
    }

    /// <summary>The measured GETs, at most one per buffer in flight; results in the order the GETs were started.</summary>
    private async Task<WholeFileGet[]> GetAllAsync(ServeCpuClient client, string path, byte[][] buffers, CancellationToken cancellationToken)
    {
        var results = new WholeFileGet[options.Gets];
        var next = -1;
        await Task.WhenAll(buffers.Select(async buffer =>
        {
            int index;
            while ((index = Interlocked.Increment(ref next)) < results.Length)
                results[index] = await client.GetAsync(path, options.FileSize, buffer, cancellationToken);
        }));
        return results;
    }

    private static string SingleFileName(byte[] nzb)
    {
        using var stream = new MemoryStream(nzb, writable: false);
        var files = new NzbParser().Parse(stream).Files;
        return files.Count == 1 ? files[0].FileName : throw new InvalidDataException($"The mock's NZB lists {files.Count} files; one was expected.");
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

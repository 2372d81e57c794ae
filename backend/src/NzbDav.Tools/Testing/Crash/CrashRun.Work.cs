using System.Globalization;
using System.Text.Json;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Nzb;

namespace NzbDav.Tools.Testing.Crash;

// The clients during a cycle's work phase (with a file held open through the mount) and the kill that ends it.
internal sealed partial class CrashRun
{
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
}

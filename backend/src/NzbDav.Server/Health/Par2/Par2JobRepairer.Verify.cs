using Microsoft.EntityFrameworkCore;
using NzbDav.Archives.Par2;
using NzbDav.Data;
using NzbDav.Data.Layout;
using NzbDav.Streaming;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nzb;

namespace NzbDav.Server.Health.Par2;

/// <summary>A verification of a release's PAR2 slices: how many were read, which did not match, and the segments those cover.</summary>
/// <param name="Verified">False when nothing could be verified (no PAR2, no set); <see cref="Summary"/> says why.</param>
public sealed record Par2VerifyResult(bool Verified, string Summary, int SlicesChecked, IReadOnlyList<int> BadSlices, IReadOnlyList<string> DamagedSegments);

// The verification at import: the same set reading as a repair, a sample of its slices checked.
public sealed partial class Par2JobRepairer
{
    /// <summary>
    /// Reads <paramref name="slices"/> slices of the job's recovery set, spread over it (the first and
    /// the last among them), and checks each against its MD5 and CRC-32. A slice that does not match
    /// names the segments it covers: bytes every article's CRC passed, yet not what was protected.
    /// </summary>
    public async Task<Par2VerifyResult> VerifyAsync(Guid jobId, int slices, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(slices, 1);
        NzbDocument document;
        List<DavFileLayout> layouts;
        await using (var context = await contextFactory.CreateDbContextAsync(cancellationToken))
        {
            var nzb = await context.JobNzbs.AsNoTracking().FirstOrDefaultAsync(n => n.JobId == jobId, cancellationToken);
            if (nzb is null)
                return new Par2VerifyResult(false, "The job's NZB is not stored.", 0, [], []);
            await using (var stream = NzbCompression.OpenRead(nzb.GzipData))
                document = await parser.ParseAsync(stream, cancellationToken);
            var stored = await context.DavItems.AsNoTracking().Where(i => i.JobId == jobId && !i.IsDirectory && i.Layout != null)
                .Select(i => i.Layout!).ToListAsync(cancellationToken);
            layouts = stored.Select(static bytes => DavFileLayoutCodec.Decode(bytes)).ToList();
        }

        var par2Files = Par2Files(document);
        if (par2Files.Count == 0)
            return new Par2VerifyResult(false, "The release has no PAR2 files.", 0, [], []);
        var account = client.Traffic.For(VerifyConsumer);
        var (set, files, why) = await ReadSetAsync(document, par2Files, account, cancellationToken);
        if (set is null)
            return new Par2VerifyResult(false, why!, 0, [], []);

        var parts = layouts.SelectMany(l => l.Parts).GroupBy(p => p.MessageIds[0], StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.First(), StringComparer.Ordinal);
        var sliceSize = checked((int)set.SliceSize);
        var count = Math.Min(slices, set.SliceCount);
        var chosen = Enumerable.Range(0, count).Select(k => count == 1 ? 0 : (int)((long)k * (set.SliceCount - 1) / (count - 1))).Distinct().ToList();
        var buffer = new byte[sliceSize];
        var bad = new List<int>();
        var damaged = new List<string>();
        var checkedSlices = 0;
        foreach (var index in chosen)
        {
            var (file, offset, length) = set.Locate(index);
            var nzbFile = files[file];
            var stream = parts.TryGetValue(nzbFile.Segments.Span[0].MessageId, out var part)
                ? streams.Open(part.MessageIds, part.FileSize, part.PartSize, null, ranged: true, account, OperationKind.HealthCheck)
                : await streams.OpenAsync(nzbFile, account, OperationKind.HealthCheck, cancellationToken);
            await using (stream)
            {
                stream.LimitReadAhead(offset + length);
                try
                {
                    stream.Seek(offset, SeekOrigin.Begin);
                    await stream.ReadExactlyAsync(buffer.AsMemory(0, length), cancellationToken);
                }
                catch (SegmentUnavailableException)
                {
                    continue; // an article gone is the health checks' to find and confirm
                }

                checkedSlices++;
                if (Par2Repair.Matches(buffer.AsSpan(0, length), sliceSize, file.Checksums[index - file.FirstSlice]))
                    continue;
                bad.Add(index);
                var segments = stream.Index;
                for (var i = 0; i < segments.Count; i++)
                {
                    if (segments.TryGetRange(i, out var begin, out var size) && begin < offset + length && begin + size > offset)
                        damaged.Add(segments.MessageIdAt(i));
                }
            }
        }

        var summary = bad.Count == 0
            ? $"PAR2 verification at import: {checkedSlices} slice(s) of {set.SliceCount} read, every one matches its MD5 and CRC-32."
            : $"PAR2 verification at import: {bad.Count} of {checkedSlices} slice(s) read do not match their MD5 and CRC-32 although every article passed its CRC (first: slice {bad[0]}); their {damaged.Count} segment(s) read as zeros until repaired.";
        return new Par2VerifyResult(true, summary, checkedSlices, bad, damaged);
    }
}

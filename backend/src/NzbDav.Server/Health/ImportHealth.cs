using NzbDav.Data.Entities;

namespace NzbDav.Server.Health;

/// <summary>What the import check learned about one file, stored as its first health record.</summary>
/// <param name="ReleasedAt">UTC: the NZB's earliest post date (the schedule stretches from it).</param>
/// <param name="Checked">Segments asked about (0: the check was off).</param>
/// <param name="Unknown">Segments no provider could answer.</param>
/// <param name="SuspectIds">Seen missing once, within the tolerance: confirmed or cleared by a check soon after.</param>
public sealed record ImportHealth(DateTime ReleasedAt, int Checked, int Unknown, IReadOnlyList<string> SuspectIds)
{
    public FileHealth ToRow(DavItem item, int segmentCount, HealthOptions options, DateTime now)
    {
        ArgumentNullException.ThrowIfNull(item);
        ArgumentNullException.ThrowIfNull(options);
        var clean = Checked > 0 && Unknown == 0 && SuspectIds.Count == 0;
        return new FileHealth
        {
            DavItemId = item.Id,
            JobId = item.JobId,
            State = clean ? FileHealthState.Healthy : FileHealthState.Unknown,
            ReleasedAt = ReleasedAt,
            LastCheckedAt = Checked > 0 ? now : null,
            SegmentCount = segmentCount,
            CheckedSegments = Checked,
            UnknownSegments = Unknown,
            SuspectIds = HealthIds.Join(SuspectIds),
            SuspectSince = SuspectIds.Count > 0 ? now : null,
            FullCheckNext = SuspectIds.Count > 0,
            Detail = SuspectIds.Count > 0 ? $"{SuspectIds.Count} segment(s) answered 430 on every provider at import; a check after {now + options.ConfirmDelay:u} confirms or clears them"
                : Checked == 0 ? "Not checked at import (the import check is off)"
                : Unknown > 0 ? $"{Unknown} of {Checked} segments got no answer at import" : null,
            NextCheckAt = SuspectIds.Count > 0 ? now + options.ConfirmDelay
                : Unknown > 0 || Checked == 0 ? now + options.UnknownRetry
                : HealthRules.NextCheck(now, ReleasedAt, options.MinInterval, options.MaxInterval, options.Jitter, Random.Shared),
        };
    }
}

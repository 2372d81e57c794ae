using System.Collections.ObjectModel;
using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Nzb;

/// <summary>
/// One <c>&lt;file&gt;</c> of an NZB. Segments are sorted by number with duplicate numbers
/// dropped (the first in document order wins); numbers absent from 1..max are listed in
/// <see cref="MissingSegmentNumbers"/>.
/// </summary>
public sealed class NzbFile
{
    private readonly NzbSegment[] _segments;

    /// <summary>
    /// Creates a file from segments in any order; they are validated, sorted and de-duplicated
    /// like the parser does. <paramref name="groups"/> is copied.
    /// </summary>
    /// <exception cref="ArgumentException">No segments, a number below 1, negative bytes, or an invalid message-id.</exception>
    public NzbFile(string subject, string poster, DateTimeOffset? postedAt, IReadOnlyList<string> groups, IEnumerable<NzbSegment> segments)
    {
        ArgumentNullException.ThrowIfNull(subject);
        ArgumentNullException.ThrowIfNull(poster);
        ArgumentNullException.ThrowIfNull(groups);
        ArgumentNullException.ThrowIfNull(segments);

        using var collector = new NzbSegmentCollector();
        foreach (var segment in segments)
        {
            if (segment.Number < 1)
                throw new ArgumentException($"Segment number {segment.Number} is below 1.", nameof(segments));
            if (segment.Bytes < 0)
                throw new ArgumentException($"Segment {segment.Number} has negative bytes.", nameof(segments));
            if (segment.MessageId is null || !NntpMessageId.IsValid(segment.MessageId))
                throw new ArgumentException($"Segment {segment.Number} has an invalid message-id.", nameof(segments));
            collector.Add(segment);
        }

        if (collector.Count == 0)
            throw new ArgumentException("An NZB file needs at least one segment.", nameof(segments));

        Subject = subject;
        Poster = poster;
        PostedAt = postedAt;
        Groups = new ReadOnlyCollection<string>([.. groups]);
        _segments = collector.ToSortedArray(out var encodedBytes);
        EncodedBytes = encodedBytes;
        FileName = NzbSubject.ExtractFileName(subject);
        MissingSegmentNumbers = NzbMissingSegmentNumbers.For(_segments);
    }

    // Parser path: the segments are already validated, sorted and de-duplicated.
    internal NzbFile(string subject, string poster, DateTimeOffset? postedAt, IReadOnlyList<string> groups,
        NzbSegment[] sortedSegments, long encodedBytes, NzbMalformedSegments? malformed = null)
    {
        MalformedSegments = malformed;
        Subject = subject;
        Poster = poster;
        PostedAt = postedAt;
        Groups = groups;
        _segments = sortedSegments;
        EncodedBytes = encodedBytes;
        FileName = NzbSubject.ExtractFileName(subject);
        MissingSegmentNumbers = NzbMissingSegmentNumbers.For(sortedSegments);
    }

    /// <summary>The <c>subject</c> attribute (empty when absent).</summary>
    public string Subject { get; }

    /// <summary>The <c>poster</c> attribute (empty when absent).</summary>
    public string Poster { get; }

    /// <summary>The <c>date</c> attribute (Unix seconds), or null when absent or unreadable.</summary>
    public DateTimeOffset? PostedAt { get; }

    /// <summary>The newsgroups the file was posted to.</summary>
    public IReadOnlyList<string> Groups { get; }

    /// <summary>Segments sorted by number, one per number.</summary>
    public ReadOnlyMemory<NzbSegment> Segments => _segments;

    /// <summary>Numbers in 1..(highest number) that have no segment, ascending.</summary>
    public IReadOnlyList<int> MissingSegmentNumbers { get; }

    /// <summary>
    /// The <c>&lt;segment&gt;</c> elements of this file the parser skipped as malformed, or null when
    /// there were none. Such a file is incomplete even when <see cref="MissingSegmentNumbers"/> is
    /// empty (a malformed last segment leaves no gap to see).
    /// </summary>
    public NzbMalformedSegments? MalformedSegments { get; }

    /// <summary>Why this file cannot be served whole from the NZB, or null when it can.</summary>
    public string? IncompleteReason => this switch
    {
        { MalformedSegments: { } m } => $"{m.Count} of its <segment> elements are malformed; the first: {m.First}",
        { MissingSegmentNumbers.Count: > 0 } => $"the NZB lacks segment(s) {string.Join(", ", MissingSegmentNumbers.Take(10))}"
            + (MissingSegmentNumbers.Count > 10 ? $" and {MissingSegmentNumbers.Count - 10} more" : ""),
        _ => null,
    };

    /// <summary>The file name taken from the subject (see <see cref="NzbSubject.ExtractFileName"/>).</summary>
    public string FileName { get; }

    /// <summary>Sum of the segments' <see cref="NzbSegment.Bytes"/> (encoded article sizes).</summary>
    public long EncodedBytes { get; }

    /// <inheritdoc />
    public override string ToString() => FileName;
}

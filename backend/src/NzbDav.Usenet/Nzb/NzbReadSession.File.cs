using System.Collections.ObjectModel;
using System.Globalization;
using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Nzb;

// The <file>, <groups> and <segments> handlers.
internal sealed partial class NzbReadSession
{
    private const long MaxSegmentBytes = int.MaxValue;

    private readonly List<string> _groupScratch = [];
    private readonly List<NzbDroppedFile> _dropped = [];
    private int _malformedCount;
    private string? _firstMalformed;
    private ReadOnlyCollection<string> _previousGroups = ReadOnlyCollection<string>.Empty;

    private async ValueTask ReadFileAsync()
    {
        var at = Position();
        var subject = string.Empty;
        var poster = string.Empty;
        DateTimeOffset? postedAt = null;
        while (_reader.MoveToNextAttribute())
        {
            var name = _reader.LocalName;
            if (NzbNames.Is(name, _names.Subject))
            {
                subject = _reader.Value;
            }
            else if (NzbNames.Is(name, _names.Poster))
            {
                ReadAttributeText();
                poster = AtomizeTrimmedText();
            }
            else if (NzbNames.Is(name, _names.Date))
            {
                ReadAttributeText();
                postedAt = ParseUnixSeconds(TextSpan);
            }
        }

        _reader.MoveToElement();
        _segments.Reset();
        _groupScratch.Clear();
        _malformedCount = 0;
        _firstMalformed = null;
        if (!_reader.IsEmptyElement)
        {
            var depth = _reader.Depth;
            while (await NextChildElementAsync(depth).ConfigureAwait(false))
            {
                if (NzbNames.Is(_reader.LocalName, _names.Segments))
                    await ReadSegmentsAsync().ConfigureAwait(false);
                else if (NzbNames.Is(_reader.LocalName, _names.Groups))
                    await ReadGroupsAsync().ConfigureAwait(false);
                else
                    await SkipElementAsync().ConfigureAwait(false);
            }
        }

        if (_segments.Count == 0)
        {
            // An empty .nfo or a broken post: the release goes on without this file (a caller that
            // needs every file sees it in DroppedFiles); only an NZB left with no file is refused.
            var reason = _malformedCount == 0
                ? "it has no segments"
                : $"every one of its {_malformedCount} segment(s) is malformed; the first: {_firstMalformed}";
            _dropped.Add(new NzbDroppedFile(subject, reason, at.Line, at.Column));
            return;
        }

        var segments = _segments.ToSortedArray(out var encodedBytes);
        var malformed = _malformedCount == 0 ? null : new NzbMalformedSegments(_malformedCount, _firstMalformed!);
        _files.Add(new NzbFile(subject, poster, postedAt, ShareGroups(), segments, encodedBytes, malformed));
    }

    private async ValueTask ReadGroupsAsync()
    {
        if (_reader.IsEmptyElement)
            return;
        var depth = _reader.Depth;
        while (await NextChildElementAsync(depth).ConfigureAwait(false))
        {
            if (!NzbNames.Is(_reader.LocalName, _names.Group))
            {
                await SkipElementAsync().ConfigureAwait(false);
                continue;
            }

            await ReadTextAsync().ConfigureAwait(false);
            var group = AtomizeTrimmedText();
            if (group.Length > 0 && !_groupScratch.Contains(group))
                _groupScratch.Add(group);
        }
    }

    private async ValueTask ReadSegmentsAsync()
    {
        if (_reader.IsEmptyElement)
            return;
        var depth = _reader.Depth;
        while (await NextChildElementAsync(depth).ConfigureAwait(false))
        {
            if (NzbNames.Is(_reader.LocalName, _names.Segment))
                await ReadSegmentAsync().ConfigureAwait(false);
            else
                await SkipElementAsync().ConfigureAwait(false);
        }
    }

    // A malformed segment is noted and skipped rather than failing the whole NZB: the file it belongs
    // to is then incomplete (or dropped, when nothing of it is left), which the caller reports by name.
    private async ValueTask ReadSegmentAsync()
    {
        var at = Position();
        var number = 0;
        long bytes = 0;
        string? problem = null;
        while (_reader.MoveToNextAttribute())
        {
            if (NzbNames.Is(_reader.LocalName, _names.Number))
            {
                ReadAttributeText();
                if (!int.TryParse(TextSpan.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out number) || number < 1)
                {
                    problem ??= $"<segment> number \"{NzbPreview.Of(TextSpan)}\" is not a whole number from 1 to {int.MaxValue}";
                    number = -1;
                }
            }
            else if (NzbNames.Is(_reader.LocalName, _names.Bytes))
            {
                ReadAttributeText();
                if (!long.TryParse(TextSpan.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out bytes) || bytes > MaxSegmentBytes)
                    problem ??= $"<segment> bytes \"{NzbPreview.Of(TextSpan)}\" is not a whole number from 0 to {MaxSegmentBytes}";
            }
        }

        _reader.MoveToElement();
        if (number == 0)
            problem ??= "<segment> has no number attribute";

        await ReadTextAsync().ConfigureAwait(false);
        if (problem is null)
        {
            var id = NzbMessageId.Normalize(TextSpan);
            if (id.IsEmpty)
            {
                problem = $"<segment> number {number} has no message-id";
            }
            else if (!NntpMessageId.IsValid(id))
            {
                problem = $"<segment> number {number} has an invalid message-id \"{NzbPreview.Of(id)}\": "
                    + $"message-ids are 1 to {NntpMessageId.MaxLength} printable ASCII characters without spaces or angle brackets";
            }
            else
            {
                _segments.Add(new NzbSegment(number, bytes, id.ToString()));
                return;
            }
        }

        _malformedCount++;
        _firstMalformed ??= $"{problem} (line {at.Line}, position {at.Column})";
    }

    // Consecutive files of a post nearly always list the same groups; share one list between them.
    private ReadOnlyCollection<string> ShareGroups()
    {
        if (_groupScratch.Count == _previousGroups.Count)
        {
            var same = true;
            for (var i = 0; i < _groupScratch.Count && same; i++)
                same = ReferenceEquals(_groupScratch[i], _previousGroups[i]);
            if (same)
                return _previousGroups;
        }

        _previousGroups = new ReadOnlyCollection<string>([.. _groupScratch]);
        return _previousGroups;
    }

    // Dates are informational: an unreadable one becomes "unknown" rather than rejecting the NZB.
    private static DateTimeOffset? ParseUnixSeconds(ReadOnlySpan<char> text)
    {
        if (!long.TryParse(text.Trim(), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var seconds))
            return null;
        var min = DateTimeOffset.MinValue.ToUnixTimeSeconds();
        var max = DateTimeOffset.MaxValue.ToUnixTimeSeconds();
        return seconds < min || seconds > max ? null : DateTimeOffset.FromUnixTimeSeconds(seconds);
    }
}

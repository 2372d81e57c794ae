using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming;

/// <summary>
/// Where each segment of one file lies in its decoded bytes, learned from yEnc part headers and
/// never from the NZB's <c>bytes</c> (that is the encoded article size). It starts by assuming what
/// posters do: every part as large as the first, the last one shorter. Every header fetched later
/// is checked against that guess; one that disagrees turns the index irregular, after which only
/// headers actually seen are trusted and an offset is found by interpolation search over them
/// (fetching probe segments). Thread-safe: headers arrive from many connections at once.
/// </summary>
public sealed class SegmentIndex
{
    private readonly string[] _messageIds;
    private readonly int[] _numbers;
    private readonly YencHeader _first;
    private KnownParts? _known;
    private volatile bool _regular;

    /// <summary>Builds the index of a file from its message-ids (in part order) and its first segment's header.</summary>
    /// <exception cref="YencException">The header cannot describe a file (negative size, empty part).</exception>
    public SegmentIndex(IReadOnlyList<string> messageIds, YencHeader firstHeader)
        : this(messageIds?.ToArray()!, null, firstHeader)
    {
    }

    private SegmentIndex(string[] messageIds, int[]? numbers, YencHeader firstHeader)
    {
        ArgumentNullException.ThrowIfNull(messageIds);
        ArgumentNullException.ThrowIfNull(firstHeader);
        if (messageIds.Length == 0)
        {
            throw new ArgumentException("A file needs at least one segment.", nameof(messageIds));
        }
        if (firstHeader.FileSize < 0 || firstHeader.PartBegin < 0 || (firstHeader.PartSize <= 0 && firstHeader.FileSize > 0) || firstHeader.PartEnd > firstHeader.FileSize)
        {
            throw new YencException($"The first segment's yEnc header is inconsistent: part {firstHeader.PartBegin}+{firstHeader.PartSize} of a {firstHeader.FileSize}-byte file.");
        }
        _messageIds = messageIds;
        _numbers = numbers ?? Enumerable.Range(1, messageIds.Length).ToArray();
        _first = firstHeader;
        FileSize = firstHeader.FileSize;
        PartSize = Math.Max(1, firstHeader.PartSize);
        var expected = FileSize == 0 ? 1 : (FileSize + PartSize - 1) / PartSize;
        _regular = firstHeader.PartBegin == 0 && expected == messageIds.Length;
        if (!_regular)
        {
            _known = new KnownParts(messageIds.Length);
            _known.Record(0, firstHeader.PartBegin, firstHeader.PartSize);
        }
    }

    /// <summary>Builds the index of an NZB file from its first segment's header.</summary>
    public static SegmentIndex For(NzbFile file, YencHeader firstHeader)
    {
        ArgumentNullException.ThrowIfNull(file);
        var segments = file.Segments.Span;
        var ids = new string[segments.Length];
        var numbers = new int[segments.Length];
        for (var i = 0; i < segments.Length; i++)
        {
            ids[i] = segments[i].MessageId;
            numbers[i] = segments[i].Number;
        }
        return new SegmentIndex(ids, numbers, firstHeader);
    }

    /// <summary>Segments in the file.</summary>
    public int Count => _messageIds.Length;

    /// <summary>The exact decoded size of the file (from the yEnc headers).</summary>
    public long FileSize { get; }

    /// <summary>The size of the first part, the size every part but the last is assumed to have.</summary>
    public long PartSize { get; }

    /// <summary>True while every header seen matches equal-sized parts.</summary>
    public bool IsRegular => _regular;

    /// <summary>The message-id of segment <paramref name="segment"/> (0-based).</summary>
    public string MessageIdAt(int segment) => _messageIds[segment];

    /// <summary>Every segment's message-id, in order.</summary>
    public IReadOnlyList<string> MessageIds => _messageIds;

    /// <summary>The NZB segment number of segment <paramref name="segment"/> (0-based).</summary>
    public int NumberAt(int segment) => _numbers[segment];

    /// <summary>
    /// The decoded range of a segment if it is known (its header was seen) or, while the index is
    /// regular, assumed.
    /// </summary>
    public bool TryGetRange(int segment, out long begin, out long length)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(segment);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(segment, Count);
        if (_regular)
        {
            begin = segment * PartSize;
            length = AssumedSize(segment);
            return true;
        }
        return Volatile.Read(ref _known)!.TryGet(segment, out begin, out length);
    }

    /// <summary>
    /// Checks a fetched segment's header against the index: true when it matches the regular
    /// layout; false when the index is (now) irregular, in which case the header is recorded.
    /// </summary>
    /// <exception cref="YencException">The header contradicts the file size or an earlier header of the same segment.</exception>
    public bool Observe(int segment, YencHeader header)
    {
        ArgumentNullException.ThrowIfNull(header);
        if (header.FileSize != FileSize)
        {
            throw new YencException($"Segment {_numbers[segment]} says the file has {header.FileSize} bytes; the first segment said {FileSize}.");
        }
        if (header.PartBegin < 0 || header.PartSize <= 0 || header.PartEnd > FileSize)
        {
            throw new YencException($"Segment {_numbers[segment]} claims bytes {header.PartBegin}+{header.PartSize} of a {FileSize}-byte file.");
        }
        if (_regular)
        {
            if (header.PartBegin == segment * PartSize && header.PartSize == AssumedSize(segment))
            {
                return true;
            }
            var known = new KnownParts(Count);
            known.Record(0, _first.PartBegin, _first.PartSize);
            Interlocked.CompareExchange(ref _known, known, null);
            _regular = false;
        }
        if (!Volatile.Read(ref _known)!.Record(segment, header.PartBegin, header.PartSize))
        {
            throw new YencException($"Segment {_numbers[segment]} was fetched twice with different part headers.");
        }
        return false;
    }

    /// <summary>The segment holding <paramref name="offset"/>, a segment to probe, or the gap around it.</summary>
    internal SegmentLocation Locate(long offset)
    {
        if (_regular)
        {
            return SegmentLocation.Found((int)Math.Min(offset / PartSize, Count - 1));
        }
        return Volatile.Read(ref _known)!.Locate(offset, FileSize);
    }

    private long AssumedSize(int segment) => Math.Min(PartSize, FileSize - (segment * PartSize));
}

using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming;

/// <summary>
/// The read window of one stream: a ring of ticket slots for the segments from a little behind the
/// reader to the read-ahead limit, tagged with their segment index so a stale slot is never served.
/// Creating a ticket submits it to the fetcher; retiring an unfinished one withdraws it. Reader-owned.
/// </summary>
internal sealed class SegmentWindow
{
    private const int MaxRingSegments = 4096;

    // A read that stops within this many segments of where it started is a probe (a header, a
    // thumbnail, a media scanner's look): what it fetched is kept for the next probe.
    private const int ProbeSegments = 4;

    private readonly SegmentIndex _index;
    private readonly ISegmentFetcher _fetcher;
    private readonly StreamContext _context;
    private readonly int _keepBehind;
    private readonly SegmentTicket?[] _ring;
    private readonly int _mask;
    private int _start;
    private int _end;
    private int _limitSegment = int.MaxValue;
    private int _lastSegment = -1;
    private int _jumpedTo;

    public SegmentWindow(SegmentIndex index, ISegmentFetcher fetcher, StreamContext context, StreamingOptions options, int maxWindowSegments)
    {
        _index = index;
        _fetcher = fetcher;
        _context = context;
        _keepBehind = options.KeepBehindSegments;
        var ring = 1;
        // A backward seek inside the window keeps what is ahead and adds keep-behind slots before it.
        while (ring < maxWindowSegments + (2 * options.KeepBehindSegments) + 2)
        {
            ring <<= 1;
        }
        _ring = new SegmentTicket?[ring];
        _mask = ring - 1;
    }

    /// <summary>The most segments the window may span ahead of the reader for these options.</summary>
    public static int MaxSegments(SegmentIndex index, StreamingOptions options)
    {
        var ceiling = options.MaxReadAheadBytes ?? StreamingOptions.ReadAheadCeilingBytes;
        var partSize = AveragePartSize(index);
        var segments = (ceiling + partSize - 1) / partSize;
        return (int)Math.Clamp(segments, options.MinReadAheadSegments, Math.Max(options.MinReadAheadSegments, MaxRingSegments));
    }

    public static long AveragePartSize(SegmentIndex index) =>
        index.IsRegular ? index.PartSize : Math.Max(1, index.FileSize / index.Count);

    /// <summary>True when <paramref name="segment"/> is inside the window.</summary>
    public bool Contains(int segment) => segment >= _start && segment < _end;

    /// <summary>
    /// Nothing past <paramref name="end"/> (a file offset, exclusive) is fetched ahead. Where parts
    /// vary in size the segment of an offset is not known without fetching, so there is no limit.
    /// </summary>
    public void LimitTo(long end) =>
        _limitSegment = end >= _index.FileSize || !_index.IsRegular ? int.MaxValue : (int)((Math.Max(end, 1) - 1) / _index.PartSize) + 1;

    /// <summary>Segments from <paramref name="position"/> up to the read-ahead limit (at least one).</summary>
    public int SegmentsToLimit(long position) =>
        _limitSegment == int.MaxValue ? int.MaxValue : Math.Max(1, _limitSegment - (int)(position / _index.PartSize));

    public SegmentTicket? SlotAt(int segment)
    {
        var ticket = _ring[segment & _mask];
        return ticket is not null && ticket.Index == segment ? ticket : null;
    }

    /// <summary>Starts the window with a segment that arrived before the stream existed (the factory's first).</summary>
    public void Adopt(SegmentBuffer first)
    {
        CreateTicket(0).Adopt(first);
        _context.Cache.Offer(_index.MessageIdAt(0), first, cold: false);
        _end = 1;
    }

    /// <summary>Keeps tickets for [segment − keep-behind, segment + span): retires the rest, creates and submits the missing ones ahead.</summary>
    public void Move(int segment, int span)
    {
        var start = Math.Max(0, segment - _keepBehind);
        // Never past the read-ahead limit, but always the segment being read.
        var limitEnd = Math.Min(_index.Count, Math.Max(_limitSegment, segment + 1));
        var end = Math.Min(limitEnd, segment + Math.Max(1, span));
        if (Contains(segment))
        {
            // A read-ahead that shrank keeps what it already asked for: dropping fetches under
            // way would waste them; it just asks for nothing new until the reader gets there.
            end = Math.Max(end, Math.Min(_end, limitEnd));
        }
        if (start == _start && end == _end && SlotAt(segment) is not null)
        {
            return;
        }
        if (segment != _lastSegment && segment != _lastSegment + 1)
        {
            _jumpedTo = segment;
        }
        _lastSegment = segment;
        for (var i = _start; i < Math.Min(_end, start); i++)
        {
            Retire(i, unread: false);
        }
        for (var i = Math.Max(_start, end); i < _end; i++)
        {
            Retire(i, unread: true);
        }
        var submitted = false;
        for (var i = segment; i < end; i++)
        {
            if (SlotAt(i) is null)
            {
                var ticket = CreateTicket(i);
                if (_context.IsHole(i))
                {
                    FillHole(ticket);
                    continue;
                }
                submitted |= Attach(ticket);
            }
        }
        _start = start;
        _end = end;
        if (submitted)
        {
            _fetcher.Wake();
        }
    }

    /// <summary>
    /// Drops a segment's ticket (and its buffer); an unfinished one stops listening to its fetch,
    /// which is withdrawn when nobody else wants it. A completed one the reader never got to is
    /// offered to the cache: the reader may come back (a player resuming, rclone reopening).
    /// </summary>
    public void Retire(int segment, bool unread)
    {
        if (SlotAt(segment) is not { } ticket)
        {
            return;
        }
        _ring[segment & _mask] = null;
        Drop(ticket, unread);
    }

    /// <summary>Drops every ticket (the stream is closing); those at or past <paramref name="readerSegment"/> were not read.</summary>
    public void Clear(int readerSegment)
    {
        for (var i = 0; i < _ring.Length; i++)
        {
            if (_ring[i] is { } ticket)
            {
                _ring[i] = null;
                Drop(ticket, ticket.Index >= readerSegment);
            }
        }
    }

    /// <summary>
    /// The reader waits for a ticket whose fetch went away, or a fetch was lost ahead of it: fetch
    /// again. A ticket that refused its copy fetches again on its own, past the cache (which may hold
    /// that copy), ruling out every provider whose copy it refused.
    /// </summary>
    public void Refetch(SegmentTicket ticket)
    {
        if (!(ticket.IsOrphaned || ticket.IsRefused) || ticket.IsCompleted || SlotAt(ticket.Index) != ticket)
        {
            return;
        }
        // Off the old fetch first: an ended fetch lets go of its buffer when its last subscriber leaves.
        if (ticket.Source is { } old && _context.Cache.Detach(ticket, old))
        {
            old.Owner.Withdraw(old);
        }
        var refused = ticket.IsRefused;
        ticket.ClearSource();
        if (!refused)
        {
            if (Attach(ticket))
            {
                _fetcher.Wake();
            }
            return;
        }
        _index.TryGetRange(ticket.Index, out _, out var expected);
        var fetch = new SharedFetch(_context.Cache, _context, _fetcher, ticket.MessageId, ticket.Index, expected);
        // A refused copy may be the one on disk: the good copy fetched now takes its place there.
        _context.Disk?.Remove(ticket.MessageId);
        foreach (var (provider, error) in ticket.Refusals)
        {
            if (provider != Disk.DiskSegmentStore.ProviderName)
            {
                fetch.RuleOut(provider, $"its part header contradicts the file: {error.Message}", error);
            }
        }
        fetch.Subscribe(ticket)?.Release();
        _fetcher.Submit(fetch);
        _fetcher.Wake();
    }

    /// <summary>Every ticket in the window whose fetch went away fetches again.</summary>
    public void RefetchOrphans()
    {
        for (var i = _start; i < _end; i++)
        {
            if (SlotAt(i) is { IsOrphaned: true } ticket)
            {
                Refetch(ticket);
            }
        }
    }

    /// <summary>The ticket the reader waits on: its own fetcher may race it; another stream's fetcher sends it first.</summary>
    public void SetHead(SegmentTicket ticket)
    {
        if (ticket.Source is not { } source)
        {
            return;
        }
        if (ReferenceEquals(source.Owner, _fetcher))
        {
            _fetcher.SetHead(source);
        }
        else if (!ticket.HasHealthyBuffer)
        {
            // Another stream fetches it as read-ahead it may not need for a while: this reader needs it now.
            // A published buffer whose attempt failed counts as none: the retry is as late as any
            // other straggler and must be raced (soak: a reader waited 7-12 s on such a retry).
            source.Owner.Expedite(source);
        }
    }

    /// <summary>Gives the ticket its bytes (cached, shared or fetched); true when a new fetch was submitted.</summary>
    private bool Attach(SegmentTicket ticket)
    {
        var segment = ticket.Index;
        var probe = segment == 0 || segment == _index.Count - 1 || segment - _jumpedTo < 1
            || (_limitSegment != int.MaxValue && _limitSegment - _jumpedTo <= ProbeSegments);
        _index.TryGetRange(segment, out _, out var expected);
        var created = _context.Cache.Attach(ticket, _context.FileKey, probe,
            () => new SharedFetch(_context.Cache, _context, _fetcher, ticket.MessageId, segment, expected));
        if (created is null)
        {
            _context.Statistics.AddShared(expected);
            return false;
        }
        if (_context.Disk is { } disk && disk.Contains(ticket.MessageId))
        {
            created.LoadFrom(disk);
            return false;
        }
        _fetcher.Submit(created);
        return true;
    }

    private void Drop(SegmentTicket ticket, bool unread)
    {
        if (ticket.AcquireCurrent() is { } buffer)
        {
            if (unread)
            {
                _context.Cache.Offer(ticket.MessageId, buffer, cold: true);
            }
            else if (buffer.IsCompleted)
            {
                _context.Cache.Released(ticket.MessageId, buffer);
            }
            buffer.Release();
        }
        ticket.Retire();
        if (ticket.Source is { } source && _context.Cache.Detach(ticket, source))
        {
            source.Owner.Withdraw(source);
            source.Owner.Wake();
        }
    }

    /// <summary>A confirmed hole: the ticket gets zeros of the segment's length at once, nothing is fetched.</summary>
    // A hole: its patch when a repair rebuilt it, else zeros of its length. Patches are rare and a
    // segment is under a megabyte, so it is read whole into a rented array and copied.
    private void FillHole(SegmentTicket ticket)
    {
        _index.TryGetRange(ticket.Index, out var begin, out var length);
        byte[]? patch = null;
        if (_context.Patches is { } patches)
        {
            patch = System.Buffers.ArrayPool<byte>.Shared.Rent((int)length);
            if (!patches.TryRead(ticket.MessageId, patch.AsSpan(0, (int)length)))
            {
                System.Buffers.ArrayPool<byte>.Shared.Return(patch);
                patch = null;
            }
        }
        try
        {
            var buffer = new SegmentBuffer(_context.Pool, null);
            buffer.Begin(new YencHeader(string.Empty, _index.FileSize, 128, ticket.Index + 1, _index.Count, begin, length));
            while (buffer.Written < length)
            {
                var span = buffer.GetSpan();
                span = span[..(int)Math.Min(span.Length, length - buffer.Written)];
                if (patch is null)
                    span.Clear();
                else
                    patch.AsSpan((int)buffer.Written, span.Length).CopyTo(span);
                buffer.Advance(span.Length);
            }
            buffer.Complete(new YencTrailer(length, ticket.Index + 1, null, null));
            ticket.Adopt(buffer);
            buffer.Release();
        }
        finally
        {
            if (patch is not null)
                System.Buffers.ArrayPool<byte>.Shared.Return(patch);
        }
        if (patch is null)
            _context.Filled(ticket.MessageId, length);
        else
            _context.Metrics?.PatchServed(length);
    }

    private SegmentTicket CreateTicket(int segment)
    {
        var ticket = new SegmentTicket(_context, segment, _index.MessageIdAt(segment), _index.NumberAt(segment));
        var slot = segment & _mask;
        if (_ring[slot] is { } stale)
        {
            // Only reachable if a ticket outside the window was not retired; never serve it.
            stale.Retire();
        }
        _ring[slot] = ticket;
        return ticket;
    }
}

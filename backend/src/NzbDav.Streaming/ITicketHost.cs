using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming;

/// <summary>The stream side of a <see cref="SegmentTicket"/>: header checks and waking the reader.</summary>
internal interface ITicketHost
{
    /// <summary>Checks (and records) a fetched segment's header; throws to reject the article.</summary>
    void ObserveHeader(int segment, YencHeader header);

    /// <summary>Something changed on the ticket: wake the reader if it waits for exactly this one.</summary>
    void OnProgress(SegmentTicket ticket);
}

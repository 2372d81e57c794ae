using NzbDav.Usenet.Fetching;

namespace NzbDav.Streaming;

/// <summary>A stream's segments fetched by the engine: one <see cref="FetchGroup"/> per stream.</summary>
internal sealed class GroupSegmentFetcher(FetchGroup group) : ISegmentFetcher
{
    public TimeSpan? MedianTimeToFirstByte => group.MedianTimeToFirstByte;

    public void Submit(SegmentTicket ticket) => group.Submit(ticket);

    public void Withdraw(SegmentTicket ticket) => group.Withdraw(ticket);

    public void SetHead(SegmentTicket ticket) => group.SetHead(ticket);

    public void Anticipate(int segments) => group.Anticipate(segments);

    public void Warm(int segments) => group.Warm(segments);

    public void Wake() => group.Wake();

    public ValueTask DisposeAsync() => group.DisposeAsync();
}

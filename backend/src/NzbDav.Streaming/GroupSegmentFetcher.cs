using NzbDav.Usenet.Fetching;

namespace NzbDav.Streaming;

/// <summary>A stream's segments fetched by the engine: one <see cref="FetchGroup"/> per stream.</summary>
internal sealed class GroupSegmentFetcher(FetchGroup group) : ISegmentFetcher
{
    public TimeSpan? MedianTimeToFirstByte => group.MedianTimeToFirstByte;

    public void Submit(ArticleRequest request) => group.Submit(request);

    public void Withdraw(ArticleRequest request) => group.Withdraw(request);

    public void SetHead(ArticleRequest request) => group.SetHead(request);

    public void Expedite(ArticleRequest request) => group.Expedite(request);

    public void Anticipate(int segments) => group.Anticipate(segments);

    public void Warm(int segments) => group.Warm(segments);

    public void Wake() => group.Wake();

    public ValueTask DisposeAsync() => group.DisposeAsync();
}

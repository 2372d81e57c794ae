namespace NzbDav.Server.Monitoring;

/// <summary>Something that reads its state asynchronously (a database count) right before each scrape, so observable instruments stay synchronous.</summary>
public interface IMetricsRefresh
{
    Task RefreshAsync(CancellationToken cancellationToken);
}

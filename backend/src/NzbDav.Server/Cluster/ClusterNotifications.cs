using Npgsql;
using NzbDav.Data;
using NzbDav.Server.Queue;

namespace NzbDav.Server.Cluster;

/// <summary>
/// What one node tells the others on PostgreSQL, by <c>LISTEN</c>/<c>NOTIFY</c> on the channel
/// <see cref="Channel"/>: "queue" when a job was added, resumed or handed back, so an idle node claims
/// it at once instead of at its next rescan. A payload is <c>topic:sender</c>; a node ignores its own.
/// Nothing to do on SQLite, which one node serves. The listening session is opened again after a
/// failure; what was sent meanwhile is caught up by the rescan every few seconds.
/// </summary>
public sealed class ClusterNotifications(
    LibraryStore store,
    ClusterNode node,
    QueueSignal queue,
    TimeProvider time,
    ILogger<ClusterNotifications> logger) : BackgroundService
{
    public const string Channel = "nzbdav";

    private const string QueueTopic = "queue";

    private static readonly TimeSpan RetryDelay = TimeSpan.FromSeconds(2);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (store.Provider != StoreProvider.Postgres)
            return;
        await Task.WhenAll(ListenAsync(stoppingToken), SendAsync(stoppingToken));
    }

    private async Task ListenAsync(CancellationToken stoppingToken)
    {
        var self = node.Id.ToString("N");
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                await using var connection = new NpgsqlConnection(store.ConnectionString);
                connection.Notification += (_, e) =>
                {
                    var separator = e.Payload.IndexOf(':', StringComparison.Ordinal);
                    if (separator < 0 || e.Payload.AsSpan(separator + 1).SequenceEqual(self))
                        return;
                    if (e.Payload.AsSpan(0, separator).SequenceEqual(QueueTopic))
                        queue.NotifyFromCluster();
                };
                await connection.OpenAsync(stoppingToken);
                await using (var listen = new NpgsqlCommand("LISTEN " + Channel, connection))
                    await listen.ExecuteNonQueryAsync(stoppingToken);
                // Anything sent while this node was not listening: look at the queue once.
                queue.NotifyFromCluster();
                while (true)
                    await connection.WaitAsync(stoppingToken);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception ex) when (ex is NpgsqlException or InvalidOperationException or IOException)
            {
                logger.LogWarning("Node {NodeName} lost its notification session with the {Store}: {Reason}; listening again in {Delay}", node.Name, store.Description, ex.Message, RetryDelay);
                await Task.Delay(RetryDelay, time, stoppingToken).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
            }
        }
    }

    private async Task SendAsync(CancellationToken stoppingToken)
    {
        var payload = QueueTopic + ":" + node.Id.ToString("N");
        try
        {
            while (await queue.Outgoing.WaitToReadAsync(stoppingToken))
            {
                queue.Outgoing.TryRead(out _);
                try
                {
                    await using var connection = new NpgsqlConnection(store.ConnectionString);
                    await connection.OpenAsync(stoppingToken);
                    await using var notify = new NpgsqlCommand("SELECT pg_notify(@channel, @payload)", connection);
                    notify.Parameters.AddWithValue("channel", Channel);
                    notify.Parameters.AddWithValue("payload", payload);
                    await notify.ExecuteNonQueryAsync(stoppingToken);
                }
                catch (Exception ex) when (ex is NpgsqlException or InvalidOperationException or IOException)
                {
                    // The others find the job at their next rescan.
                    logger.LogDebug("Node {NodeName} could not notify the others: {Reason}", node.Name, ex.Message);
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
    }
}

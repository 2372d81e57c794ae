using Npgsql;
using NzbDav.Data;
using NzbDav.Server.Configuration;
using NzbDav.Server.Queue;

namespace NzbDav.Server.Cluster;

/// <summary>
/// What one node tells the others on PostgreSQL, by <c>LISTEN</c>/<c>NOTIFY</c> on the channel
/// <see cref="Channel"/>: "queue" when a job was added, resumed or handed back, so an idle node claims
/// it at once instead of at its next rescan; "settings" and "secrets" when the web UI saved settings,
/// a provider, the API key or an account, so every node reads them again and applies them as its own
/// would; "leases" when a node gave back sessions or wants more (see <see cref="ConnectionLeases"/>). A payload is <c>topic:sender</c>; a node ignores its own.
/// Nothing to do on SQLite, which one node serves. The listening session is opened again after a
/// failure; what was sent meanwhile is caught up by the rescan every few seconds.
/// </summary>
public sealed class ClusterNotifications(
    LibraryStore store,
    ClusterNode node,
    ClusterOutbox outbox,
    QueueSignal queue,
    TimeProvider time,
    ILogger<ClusterNotifications> logger,
    StoredSettingsSource? settings = null,
    StoredSecretsSource? secrets = null,
    ProviderLeaseState? leases = null,
    HealthWake? health = null,
    Health.Par2.SegmentPatchStore? patches = null,
    Mount.LibraryChanges? libraryChanges = null) : BackgroundService
{
    public const string Channel = "nzbdav";

    public const string SettingsTopic = "settings";

    public const string SecretsTopic = "secrets";

    /// <summary>A node gave back part of a lease, or wants more than it could get: every node runs a lease step.</summary>
    public const string LeasesTopic = "leases";

    private const string QueueTopic = "queue";

    /// <summary>A PAR2 repair stored patches, or a job with patches left the library: every node reads the patch index again.</summary>
    public const string PatchesTopic = "patches";

    /// <summary>A job of a category entered or left the library (<c>library/&lt;category&gt;</c>): every node refreshes that folder on its mount.</summary>
    public const string LibraryTopicPrefix = "library/";

    /// <summary>Tells the other nodes <paramref name="topic"/> (<see cref="SettingsTopic"/>, <see cref="SecretsTopic"/>); nothing on SQLite.</summary>
    public void Publish(string topic) => outbox.Publish(topic);

    private static readonly TimeSpan RetryDelay = TimeSpan.FromSeconds(2);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (store.Provider != StoreProvider.Postgres)
            return;
        await Task.WhenAll(ListenAsync(stoppingToken), SendAsync(QueueOutgoing(stoppingToken), stoppingToken), SendAsync(outbox.Reader.ReadAllAsync(stoppingToken), stoppingToken));
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
                    // The sender's id (hex) is after the last colon: a topic may hold colons (a category name).
                    var separator = e.Payload.LastIndexOf(':');
                    if (separator < 0 || e.Payload.AsSpan(separator + 1).SequenceEqual(self))
                        return;
                    var topic = e.Payload[..separator];
                    switch (topic)
                    {
                        case QueueTopic:
                            queue.NotifyFromCluster();
                            break;
                        case SettingsTopic:
                            settings?.Provider.Reload();
                            logger.LogInformation("Settings saved on another node are in effect on {NodeName}", node.Name);
                            break;
                        case SecretsTopic:
                            secrets?.Provider.Reload();
                            break;
                        case LeasesTopic:
                            leases?.RequestStep();
                            break;
                        case Health.HealthCheckService.HealthTopic:
                            health?.Request();
                            break;
                        case PatchesTopic:
                            patches?.Refresh();
                            break;
                        case var library when library.StartsWith(LibraryTopicPrefix, StringComparison.Ordinal):
                            libraryChanges?.ChangedOnAnotherNode(library[LibraryTopicPrefix.Length..]);
                            break;
                    }
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

    private async IAsyncEnumerable<string> QueueOutgoing([System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken stoppingToken)
    {
        while (await queue.Outgoing.WaitToReadAsync(stoppingToken))
        {
            while (queue.Outgoing.TryRead(out _))
            {
            }

            yield return QueueTopic;
        }
    }

    private async Task SendAsync(IAsyncEnumerable<string> topics, CancellationToken stoppingToken)
    {
        var sender = ":" + node.Id.ToString("N");
        try
        {
            await foreach (var topic in topics)
            {
                try
                {
                    await using var connection = new NpgsqlConnection(store.ConnectionString);
                    await connection.OpenAsync(stoppingToken);
                    await using var notify = new NpgsqlCommand("SELECT pg_notify(@channel, @payload)", connection);
                    notify.Parameters.AddWithValue("channel", Channel);
                    notify.Parameters.AddWithValue("payload", topic + sender);
                    await notify.ExecuteNonQueryAsync(stoppingToken);
                }
                catch (Exception ex) when (ex is NpgsqlException or InvalidOperationException or IOException)
                {
                    // Queued jobs are found at the others' next rescan; settings at their next start or save.
                    logger.LogWarning("Node {NodeName} could not tell the others '{Topic}': {Reason}", node.Name, topic, ex.Message);
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
    }
}

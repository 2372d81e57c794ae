using System.Threading.Channels;

namespace NzbDav.Server.Mount;

/// <summary>
/// Told when a job's files enter or leave the library (completed, deleted, repaired away), so the
/// managed mount can refresh just the folders that changed: Sonarr sees a new job at once instead
/// of after rclone's directory cache expires; on PostgreSQL every node's mount does, whichever node
/// made the change. Never blocks the caller; changes nobody reads (the mount is off) are dropped.
/// </summary>
public sealed class LibraryChanges(Cluster.ClusterOutbox? outbox = null)
{
    // Bounded and dropping the oldest: a refresh of a category folder covers every change before it.
    private readonly Channel<string> _categories = Channel.CreateBounded<string>(
        new BoundedChannelOptions(256) { FullMode = BoundedChannelFullMode.DropOldest, SingleReader = true });

    /// <summary>A job of <paramref name="category"/> was added to or removed from the library (here; the other nodes are told).</summary>
    public void Changed(string category)
    {
        _categories.Writer.TryWrite(category);
        outbox?.Publish(Cluster.ClusterNotifications.LibraryTopicPrefix + category);
    }

    /// <summary>Another node added or removed a job of <paramref name="category"/>: this node's mount refreshes that folder too.</summary>
    public void ChangedOnAnotherNode(string category) => _categories.Writer.TryWrite(category);

    internal ChannelReader<string> Reader => _categories.Reader;
}

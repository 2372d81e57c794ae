using System.Threading.Channels;
using NzbDav.Data;

namespace NzbDav.Server.Cluster;

/// <summary>
/// What this node has to tell the others, waiting for <see cref="ClusterNotifications"/> to send it
/// (a separate piece so that what the notifications wake may also publish). Nothing is kept on
/// SQLite, which one node serves; a burst beyond 256 topics drops the newest, as the others catch up
/// at their next heartbeat or rescan.
/// </summary>
public sealed class ClusterOutbox(LibraryStore store)
{
    private readonly Channel<string> _topics = Channel.CreateBounded<string>(
        new BoundedChannelOptions(256) { FullMode = BoundedChannelFullMode.DropWrite, SingleReader = true });

    /// <summary>Tells the other nodes <paramref name="topic"/>; nothing on SQLite.</summary>
    public void Publish(string topic)
    {
        ArgumentException.ThrowIfNullOrEmpty(topic);
        if (store.Provider == StoreProvider.Postgres)
            _topics.Writer.TryWrite(topic);
    }

    internal ChannelReader<string> Reader => _topics.Reader;
}

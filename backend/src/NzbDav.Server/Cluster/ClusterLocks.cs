using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.IO.Hashing;
using System.Text;
using Npgsql;
using NzbDav.Data;

namespace NzbDav.Server.Cluster;

/// <summary>
/// Work that must run once in the whole cluster at a time (a repair of one file, a PAR2 rebuild of one
/// job). On PostgreSQL a session-level advisory lock on a connection of its own, held while the work
/// runs: a node that dies lets go of it with its session. On SQLite, which one process serves, a lock
/// in the process.
/// </summary>
public sealed class ClusterLocks(LibraryStore store)
{
    private readonly ConcurrentDictionary<long, byte> _local = new();

    /// <summary>Takes the lock of <paramref name="what"/> <paramref name="id"/> if nobody holds it; null when somebody does.</summary>
    public async Task<IAsyncDisposable?> TryAcquireAsync(string what, Guid id, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(what);
        var key = KeyOf(what, id);
        if (store.Provider != StoreProvider.Postgres)
            return _local.TryAdd(key, 0) ? new LocalLock(_local, key) : null;

        // Not pooled: a pooled session would be reset (and its lock dropped) or lent on with the lock held.
        var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(store.ConnectionString) { Pooling = false }.ConnectionString);
        try
        {
            await connection.OpenAsync(cancellationToken);
            await using var command = new NpgsqlCommand("SELECT pg_try_advisory_lock(@key)", connection);
            command.Parameters.AddWithValue("key", key);
            if ((bool)(await command.ExecuteScalarAsync(cancellationToken))!)
                return new SessionLock(connection);
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }

        await connection.DisposeAsync();
        return null;
    }

    private static long KeyOf(string what, Guid id)
    {
        Span<byte> bytes = stackalloc byte[16 + Encoding.UTF8.GetMaxByteCount(what.Length)];
        id.TryWriteBytes(bytes);
        var length = 16 + Encoding.UTF8.GetBytes(what, bytes[16..]);
        return BinaryPrimitives.ReadInt64LittleEndian(XxHash64.Hash(bytes[..length]));
    }

    private sealed class LocalLock(ConcurrentDictionary<long, byte> held, long key) : IAsyncDisposable
    {
        public ValueTask DisposeAsync()
        {
            held.TryRemove(key, out _);
            return ValueTask.CompletedTask;
        }
    }

    // Closing the session lets go of its advisory locks.
    private sealed class SessionLock(NpgsqlConnection connection) : IAsyncDisposable
    {
        public ValueTask DisposeAsync() => connection.DisposeAsync();
    }
}

/// <summary>Another node asked this one's health scheduler to look for due files now (a backlog it cannot take alone).</summary>
public sealed class HealthWake
{
    public event Action? Requested;

    public void Request() => Requested?.Invoke();
}

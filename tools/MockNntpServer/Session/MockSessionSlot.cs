namespace NzbDav.MockNntp.Session;

/// <summary>
/// One accepted connection's place under the server's connection limit. Released exactly once, and
/// before the socket is closed: a client that sees the close may connect again at once, and must
/// not be refused for a session the server has already finished with.
/// </summary>
internal sealed class MockSessionSlot(MockServerStats stats)
{
    private int _held;

    /// <summary>Takes a place; false (counted as rejected) when <paramref name="limit"/> sessions are open.</summary>
    public bool TryTake(int? limit)
    {
        if (!stats.TryOpen(limit))
        {
            return false;
        }
        Volatile.Write(ref _held, 1);
        return true;
    }

    public void Release()
    {
        if (Interlocked.Exchange(ref _held, 0) == 1)
        {
            stats.Close();
        }
    }
}

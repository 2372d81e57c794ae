namespace NzbDav.Server.Queue;

/// <summary>
/// Bytes one job may keep of first articles beyond their first 16 KiB. A 100-volume release keeps
/// every volume's first article (~75 MB at 750 KB articles); a 5,000-volume one stops growing heads
/// at the budget and reads further headers on demand instead.
/// </summary>
internal sealed class HeadBudget(long bytes)
{
    private long _left = bytes;

    public bool TryReserve(long bytes)
    {
        while (true)
        {
            var left = Volatile.Read(ref _left);
            if (left < bytes)
                return false;
            if (Interlocked.CompareExchange(ref _left, left - bytes, left) == left)
                return true;
        }
    }
}

namespace NzbDav.Usenet.Nntp;

/// <summary>
/// Paces a session's socket reads (a bandwidth cap): asked before each read, told after it what the
/// read took. Set on a session by the lease that holds it.
/// </summary>
public interface IReceiveThrottle
{
    /// <summary>Completes when the next read may go; completes at once while nothing caps it.</summary>
    ValueTask WaitAsync(CancellationToken cancellationToken);

    /// <summary>The read that <see cref="WaitAsync"/> let go took <paramref name="bytes"/> (0 when it failed or was cancelled).</summary>
    void Received(int bytes);
}

using System.Buffers;

namespace NzbDav.Usenet.Nntp;

public sealed partial class NntpConnection
{
    private const int SendBufferSize = 8 * 1024;

    /// <summary>Writes queued commands; whatever has queued up since the last write goes out in one write.</summary>
    private async Task SendLoopAsync()
    {
        var buffer = ArrayPool<byte>.Shared.Rent(SendBufferSize);
        try
        {
            var queue = _sendQueue.Reader;
            while (await queue.WaitToReadAsync(_shutdown.Token).ConfigureAwait(false))
            {
                var count = 0;
                while (count + NntpRequest.MaxCommandLength <= buffer.Length && queue.TryRead(out var request))
                {
                    count += request.WriteCommand(buffer.AsSpan(count));
                }
                await _stream.WriteAsync(buffer.AsMemory(0, count), _shutdown.Token).ConfigureAwait(false);
                await _stream.FlushAsync(_shutdown.Token).ConfigureAwait(false);
            }
        }
        catch (Exception e)
        {
            // A failed write leaves the server's view of the command stream unknown.
            Break(Translate(e, ProviderName));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}

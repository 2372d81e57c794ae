using System.Runtime.CompilerServices;

namespace NzbDav.Usenet.Nntp;

public sealed partial class NntpConnection
{
    /// <summary>
    /// The session's transport as the pipe reader sees it: every read waits for its turn under the
    /// bandwidth caps (when the lease holding the session has any), and its byte count goes to the
    /// provider and to the account the session works for. Only reads pass through here (the send
    /// loop writes to the transport itself).
    /// </summary>
    private sealed class ReceiveCounter(Stream inner, NntpConnection owner) : Stream
    {
        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position
        {
            get => throw new NotSupportedException();
            set => throw new NotSupportedException();
        }

        [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            var throttle = owner.Throttle;
            if (throttle is not null)
            {
                var turn = throttle.WaitAsync(cancellationToken);
                if (!turn.IsCompletedSuccessfully)
                {
                    await owner.WaitTurnAsync(throttle, turn).ConfigureAwait(false);
                }
            }
            var read = 0;
            try
            {
                read = await inner.ReadAsync(buffer, cancellationToken).ConfigureAwait(false);
            }
            finally
            {
                throttle?.Received(read);
            }
            if (read > 0)
            {
                owner.CountReceived(read);
            }
            return read;
        }

        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
            ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

        public override int Read(byte[] buffer, int offset, int count)
        {
            var read = inner.Read(buffer, offset, count);
            if (read > 0)
            {
                owner.CountReceived(read);
            }
            return read;
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}

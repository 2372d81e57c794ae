using System.Buffers;
using System.Diagnostics;
using System.Text;

namespace NzbDav.MockNntp.Session;

/// <summary>
/// Coalesces small response pieces into one 64 KB buffer and writes large data straight to the
/// stream, so the socket sees few, large writes. Applies the per-connection bandwidth cap.
/// </summary>
internal sealed class MockResponseWriter : IDisposable
{
    private const int BufferSize = 64 * 1024;
    private const int PacedChunk = 16 * 1024;

    private readonly Stream _stream;
    private readonly MockBehavior _behavior;
    private readonly MockServerStats _stats;
    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
    private int _count;
    private long _paceStart;
    private long _pacedBytes;

    public MockResponseWriter(Stream stream, MockBehavior behavior, MockServerStats stats)
    {
        _stream = stream;
        _behavior = behavior;
        _stats = stats;
    }

    public ValueTask WriteLineAsync(string line, CancellationToken cancellationToken)
    {
        var needed = Encoding.UTF8.GetByteCount(line) + 2;
        if (_count + needed <= _buffer.Length)
        {
            _count += Encoding.UTF8.GetBytes(line, _buffer.AsSpan(_count));
            _buffer[_count++] = (byte)'\r';
            _buffer[_count++] = (byte)'\n';
            return ValueTask.CompletedTask;
        }
        return WriteAsync(Encoding.UTF8.GetBytes(line + "\r\n"), cancellationToken);
    }

    public async ValueTask WriteAsync(ReadOnlyMemory<byte> data, CancellationToken cancellationToken)
    {
        if (_count + data.Length <= _buffer.Length)
        {
            data.Span.CopyTo(_buffer.AsSpan(_count));
            _count += data.Length;
            return;
        }
        await FlushAsync(cancellationToken).ConfigureAwait(false);
        await SendAsync(data, cancellationToken).ConfigureAwait(false);
    }

    public async ValueTask FlushAsync(CancellationToken cancellationToken)
    {
        if (_count > 0)
        {
            var count = _count;
            _count = 0;
            await SendAsync(_buffer.AsMemory(0, count), cancellationToken).ConfigureAwait(false);
        }
    }

    public void Dispose()
    {
        var buffer = Interlocked.Exchange(ref _buffer, []);
        if (buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private async ValueTask SendAsync(ReadOnlyMemory<byte> data, CancellationToken cancellationToken)
    {
        var bandwidth = _behavior.BandwidthBytesPerSecond;
        // Counted before the write: a client can read the bytes before the write call returns here,
        // and must then see them counted.
        if (bandwidth <= 0)
        {
            _stats.AddBytesSent(data.Length);
            await _stream.WriteAsync(data, cancellationToken).ConfigureAwait(false);
            return;
        }
        while (!data.IsEmpty)
        {
            var chunk = data[..Math.Min(data.Length, (int)Math.Clamp(bandwidth / 20, 1, PacedChunk))];
            await PaceAsync(bandwidth, cancellationToken).ConfigureAwait(false);
            _stats.AddBytesSent(chunk.Length);
            await _stream.WriteAsync(chunk, cancellationToken).ConfigureAwait(false);
            await _stream.FlushAsync(cancellationToken).ConfigureAwait(false);
            _pacedBytes += chunk.Length;
            data = data[chunk.Length..];
        }
    }

    private async ValueTask PaceAsync(long bandwidth, CancellationToken cancellationToken)
    {
        var now = Stopwatch.GetTimestamp();
        var due = _paceStart + (long)(_pacedBytes * (double)Stopwatch.Frequency / bandwidth);
        // After an idle gap, start a new budget rather than bursting to "catch up".
        if (_paceStart == 0 || now - due > Stopwatch.Frequency / 10)
        {
            _paceStart = now;
            _pacedBytes = 0;
            return;
        }
        if (due > now)
        {
            await Task.Delay(Stopwatch.GetElapsedTime(now, due), cancellationToken).ConfigureAwait(false);
        }
    }
}

using System.Buffers;
using System.Diagnostics;
using NzbDav.Streaming;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Tools.Testing;

// The measured reads: scrubbing and the sequential pass.
internal sealed partial class FullNzbTester
{
    /// <summary>Bytes asked for per read, as a player reading through rclone would.</summary>
    public const int ReadSize = 256 * 1024;

    /// <summary>Where the scrub seeks, in this order (20 % last: a jump back after the far seeks).</summary>
    public static readonly IReadOnlyList<int> ScrubPercents = [10, 50, 90, 20];

    // The four seeks go to ONE open stream, as a player scrubbing through a file does; the seed's
    // tester reused a stream it had already consumed and disposed, which this never does.
    private async Task<IReadOnlyList<ScrubResult>> ScrubAsync(BufferedSegmentStream stream, ReadVerifier verifier, CancellationToken cancellationToken)
    {
        var results = new List<ScrubResult>(ScrubPercents.Count);
        var buffer = ArrayPool<byte>.Shared.Rent(ReadSize);
        try
        {
            foreach (var percent in ScrubPercents)
            {
                var position = stream.Length * percent / 100;
                var started = Stopwatch.GetTimestamp();
                stream.Seek(position, SeekOrigin.Begin);
                var read = await stream.ReadAsync(buffer.AsMemory(0, ReadSize), cancellationToken);
                var elapsed = Stopwatch.GetElapsedTime(started);
                if (read == 0)
                {
                    throw new EndOfStreamException($"The first read after seeking to {position:N0} of {stream.Length:N0} returned no bytes.");
                }

                verifier.Verify(position, buffer.AsSpan(0, read));
                results.Add(new ScrubResult(percent, position, elapsed, read));
                _logger.LogInformation("Scrub to {Percent}% ({Position} bytes): {ElapsedMs:F1} ms, {Bytes} bytes", percent, position, elapsed.TotalMilliseconds, read);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }

        return results;
    }

    // A fresh stream from byte 0, so the pass starts cold like a new playback; the clock includes opening it.
    private async Task<SequentialPass> ReadSequentiallyAsync(
        NzbFileStreamFactory factory, NzbFile file, YencHeader header, ReadVerifier verifier, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(ReadSize);
        try
        {
            var started = Stopwatch.GetTimestamp();
            await using var stream = await factory.OpenAsync(file, header, cancellationToken);
            var durations = new List<double>((int)Math.Min(int.MaxValue, (stream.Length / ReadSize) + 2));
            long position = 0;
            TimeSpan? firstByte = null;
            var nextLog = stream.Length / 4;
            while (true)
            {
                var readStarted = Stopwatch.GetTimestamp();
                var read = await stream.ReadAsync(buffer.AsMemory(0, ReadSize), cancellationToken);
                if (read == 0)
                {
                    break;
                }

                durations.Add(Stopwatch.GetElapsedTime(readStarted).TotalMilliseconds);
                firstByte ??= Stopwatch.GetElapsedTime(started);
                verifier.Verify(position, buffer.AsSpan(0, read));
                position += read;
                if (position >= nextLog && position < stream.Length)
                {
                    _logger.LogInformation("Sequential read: {Read} of {Length} bytes", position, stream.Length);
                    nextLog += stream.Length / 4;
                }
            }

            var elapsed = Stopwatch.GetElapsedTime(started);
            if (position != stream.Length)
            {
                throw new EndOfStreamException($"The sequential read ended at byte {position:N0} of {stream.Length:N0}.");
            }

            _logger.LogInformation("Sequential read: {Bytes} bytes in {ElapsedMs:F0} ms", position, elapsed.TotalMilliseconds);
            return new SequentialPass(stream.Length, position, elapsed, ReadTimeStatistics.From(durations), stream.Statistics) { FirstByte = firstByte ?? elapsed };
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}

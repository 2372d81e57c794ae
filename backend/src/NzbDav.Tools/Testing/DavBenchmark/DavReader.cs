using System.Buffers;
using System.Diagnostics;
using System.Net.Http.Headers;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// GETs a file (or a range of it) over HTTP and reads the body in 256 KiB blocks, as rclone and
/// players do, comparing every byte with the mock server's content generator. A wrong status, a
/// wrong Content-Length or a short body is an error; wrong bytes are counted in the tally.
/// </summary>
internal sealed class DavReader(HttpClient http, VerificationTally tally)
{
    /// <summary>Bytes per block: the read size of the FullNzbTester and of rclone's default buffer.</summary>
    public const int BlockSize = 256 * 1024;

    /// <summary>Reads <paramref name="length"/> bytes at <paramref name="offset"/>; <paramref name="ranged"/> sends a Range header, else the whole file is asked for.</summary>
    public async Task<GetMeasurement> ReadAsync(
        string path, ExpectedBytesReader? expected, long offset, long length, bool ranged, Playback? playback, CancellationToken cancellationToken)
    {
        var verifier = new ReadVerifier(expected);
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, playback?.Stop ?? CancellationToken.None);
        var token = linked.Token;
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        if (ranged)
            request.Headers.Range = new RangeHeaderValue(offset, offset + length - 1);
        var buffer = ArrayPool<byte>.Shared.Rent(BlockSize);
        var started = Stopwatch.GetTimestamp();
        var timeToFirstByte = TimeSpan.Zero;
        var status = 0;
        long received = 0;
        try
        {
            using var response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, token);
            status = (int)response.StatusCode;
            var wanted = ranged ? 206 : 200;
            if (status != wanted || response.Content.Headers.ContentLength != length)
            {
                throw new InvalidDataException(
                    $"GET {path}{(ranged ? $" bytes={offset}-{offset + length - 1}" : "")} answered {status} with Content-Length {response.Content.Headers.ContentLength?.ToString() ?? "none"}; expected {wanted} and {length}.");
            }

            await using var body = await response.Content.ReadAsStreamAsync(token);
            while (received < length)
            {
                // The first block's time counts from the request: it is the stream's start-up.
                var blockStarted = received == 0 ? started : Stopwatch.GetTimestamp();
                var want = (int)Math.Min(BlockSize, length - received);
                var filled = 0;
                while (filled < want)
                {
                    var read = await body.ReadAsync(buffer.AsMemory(filled, want - filled), token);
                    if (read == 0)
                        throw new EndOfStreamException($"GET {path} ended after {received + filled:N0} of {length:N0} bytes.");
                    if (received == 0 && filled == 0)
                        timeToFirstByte = Stopwatch.GetElapsedTime(started);
                    filled += read;
                }

                verifier.Verify(offset + received, buffer.AsSpan(0, filled));
                received += filled;
                if (playback is not null)
                {
                    var blockTime = Stopwatch.GetElapsedTime(blockStarted);
                    playback.OnBlock?.Invoke(blockStarted, blockTime, offset + received - filled);
                    await PlayAsync(playback, started, received, blockTime, token);
                }
            }
        }
        catch (OperationCanceledException) when (playback is not null && playback.Stop.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
        {
            // The player closed the file; dropping the request mid-body is exactly what it does.
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
            tally.Add(path, verifier);
        }

        return new GetMeasurement(status, received, timeToFirstByte, Stopwatch.GetElapsedTime(started));
    }

    private static async Task PlayAsync(Playback playback, long started, long received, TimeSpan blockTime, CancellationToken cancellationToken)
    {
        playback.BlockTimes.Add(blockTime.TotalMilliseconds);
        if (playback.BlockTimes.Count == 1)
            playback.OnFirstBlock();
        if (playback.BytesPerSecond <= 0)
            return;

        // Paced from the request's start: a late block is followed by an immediate one (the player's buffer catches up).
        var due = TimeSpan.FromSeconds((double)received / playback.BytesPerSecond) - Stopwatch.GetElapsedTime(started);
        if (due > TimeSpan.Zero)
            await Task.Delay(due, cancellationToken);
    }
}

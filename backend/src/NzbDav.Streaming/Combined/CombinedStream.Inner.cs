using System.Buffers;

namespace NzbDav.Streaming.Combined;

// Opening, positioning and evicting inner streams.
public sealed partial class CombinedStream
{
    private const int SkipBufferSize = 64 * 1024;

    /// <inheritdoc />
    /// <remarks>The part being read now (volumes ahead are opened only when the reader reaches them).</remarks>
    public long BytesAhead => Volatile.Read(ref _reading) is IReadAheadSource inner ? inner.BytesAhead : 0;

    /// <inheritdoc />
    /// <remarks>Every part's inner stream opened so far, the closed ones included.</remarks>
    public long BytesFetched => _totals.BytesFetched;

    /// <inheritdoc />
    /// <remarks>Every part's inner stream opened so far, the closed ones included.</remarks>
    public long BytesShared => _totals.BytesShared;

    private async ValueTask<int> ReadPartAsync(int index, long within, Memory<byte> destination, CancellationToken cancellationToken)
    {
        var entry = await GetPositionedAsync(index, within, cancellationToken).ConfigureAwait(false);
        Volatile.Write(ref _reading, entry.Stream);
        int read;
        try
        {
            read = await entry.Stream.ReadAsync(destination, cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            // A failed or cancelled read leaves the inner stream's state unknown: never reuse it.
            await EvictAsync(entry).ConfigureAwait(false);
            throw;
        }

        if (read == 0)
        {
            await EvictAsync(entry).ConfigureAwait(false);
            throw PartEndedEarly(index, within);
        }

        entry.InnerPosition += read;
        return read;
    }

    private async ValueTask<OpenInnerStream> GetPositionedAsync(int index, long within, CancellationToken cancellationToken)
    {
        var target = _map[index].Offset + within;
        var entry = _open.Find(index);
        if (entry is not null)
        {
            if (entry.InnerPosition == target)
            {
                return entry;
            }

            // A forward-only stream cannot go back: drop it and start over from the factory.
            if (entry.Stream.CanSeek || entry.InnerPosition < target)
            {
                await MoveOrEvictAsync(entry, index, target, cancellationToken).ConfigureAwait(false);
                return entry;
            }

            await EvictAsync(entry).ConfigureAwait(false);
        }

        entry = await OpenAsync(index, cancellationToken).ConfigureAwait(false);
        await MoveOrEvictAsync(entry, index, target, cancellationToken).ConfigureAwait(false);
        return entry;
    }

    private async ValueTask<OpenInnerStream> OpenAsync(int index, CancellationToken cancellationToken)
    {
        var part = _map[index];
        var stream = await part.Open(cancellationToken).ConfigureAwait(false)
            ?? throw new InvalidOperationException($"The factory of part {_map.CallerIndexOf(index)} returned null instead of a stream.");
        Interlocked.Increment(ref _streamsOpened);
        _totals.Opened(stream);
        var entry = new OpenInnerStream(index, stream);
        var evicted = _open.Add(entry);
        if (evicted is not null)
        {
            await DisposeInnerAsync(evicted).ConfigureAwait(false);
        }

        if (!stream.CanRead)
        {
            await EvictAsync(entry).ConfigureAwait(false);
            throw new InvalidOperationException($"The factory of part {_map.CallerIndexOf(index)} returned a stream that cannot be read.");
        }

        if (stream.CanSeek && stream.Length is var innerLength && part.Offset + part.Length > innerLength)
        {
            await EvictAsync(entry).ConfigureAwait(false);
            throw new InvalidDataException(
                $"Part {_map.CallerIndexOf(index)} covers bytes {part.Offset}..{part.Offset + part.Length} of its inner stream, which has only {innerLength} bytes.");
        }

        return entry;
    }

    private async ValueTask MoveOrEvictAsync(OpenInnerStream entry, int index, long target, CancellationToken cancellationToken)
    {
        try
        {
            if (entry.Stream.CanSeek)
            {
                entry.Stream.Position = target;
                entry.InnerPosition = target;
            }
            else
            {
                await SkipForwardAsync(entry, index, target, cancellationToken).ConfigureAwait(false);
            }
        }
        catch
        {
            await EvictAsync(entry).ConfigureAwait(false);
            throw;
        }
    }

    private async ValueTask SkipForwardAsync(OpenInnerStream entry, int index, long target, CancellationToken cancellationToken)
    {
        var scratch = ArrayPool<byte>.Shared.Rent(SkipBufferSize);
        try
        {
            while (entry.InnerPosition < target)
            {
                var want = (int)Math.Min(scratch.Length, target - entry.InnerPosition);
                var read = await entry.Stream.ReadAsync(scratch.AsMemory(0, want), cancellationToken).ConfigureAwait(false);
                if (read == 0)
                {
                    throw PartEndedEarly(index, entry.InnerPosition - _map[index].Offset);
                }

                entry.InnerPosition += read;
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(scratch);
        }
    }

    private async ValueTask EvictAsync(OpenInnerStream entry)
    {
        // Removed first: once out of the cache, nothing can hand the stream out again.
        if (_open.Remove(entry))
        {
            await DisposeInnerAsync(entry).ConfigureAwait(false);
        }
    }

    // What the stream fetched and took shared stays counted in the totals once it is gone.
    private async ValueTask DisposeInnerAsync(OpenInnerStream entry)
    {
        try
        {
            await entry.Stream.DisposeAsync().ConfigureAwait(false);
        }
        finally
        {
            _totals.Closed(entry.Stream);
        }
    }

    private EndOfStreamException PartEndedEarly(int index, long within)
    {
        var part = _map[index];
        return new EndOfStreamException(
            $"Part {_map.CallerIndexOf(index)} ended after {Math.Max(0, within)} of its {part.Length} bytes " +
            $"(inner offset {part.Offset + Math.Max(0, within)}): the part list does not match the inner stream.");
    }
}

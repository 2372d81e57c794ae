using System.Buffers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming.Disk;

// Reads: looked up in the index, read by a few loops in the order asked, checked against their CRC.
public sealed partial class DiskSegmentStore
{
    /// <summary>
    /// <paramref name="messageId"/>'s segment as a completed buffer from <paramref name="pool"/>
    /// (one reference, the caller's), once its CRC matched; null on a miss. Never throws for the disk.
    /// </summary>
    internal async ValueTask<SegmentBuffer?> ReadAsync(string messageId, ArrayPool<byte> pool, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrEmpty(messageId);
        var name = NameOf(messageId);
        Entry? entry;
        lock (_gate)
        {
            if (!_entries.TryGetValue(name, out entry))
            {
                _misses++;
                return null;
            }

            Touch(entry, entry.Kind);
        }

        // A few reader loops take the reads in the order they were asked for. A start read-ahead
        // asks for dozens of segments at once: as that many pool items (file reads block on Linux)
        // they held the thread pool, and the reader's own continuation, waiting behind them, got
        // its first byte 20 ms late.
        var read = new PendingRead(name, entry, pool, cancellationToken);
        if (!_reads.Writer.TryWrite(read))
            return null;
        return await read.Result.Task.ConfigureAwait(false);
    }

    // Two loops read at 2 GB/s from the page cache; more would only take threads from the readers.
    private static int ReaderLoops => Math.Clamp(Environment.ProcessorCount, 2, 4);

    private async Task ReadLoopAsync()
    {
        await foreach (var read in _reads.Reader.ReadAllAsync().ConfigureAwait(false))
        {
            if (read.CancellationToken.IsCancellationRequested)
            {
                read.Result.TrySetCanceled(read.CancellationToken);
                continue;
            }

            try
            {
                read.Result.TrySetResult(ReadFile(read.Name, read.Entry, read.Pool));
            }
#pragma warning disable CA1031 // the reader is told; the loop must go on for the next one
            catch (Exception error)
#pragma warning restore CA1031
            {
                read.Result.TrySetException(error);
            }

            // A start read-ahead queues dozens of reads, and the channel hands them over without a
            // pause: each loop would hold its pool thread until the queue drained, and on two cores
            // the reader woken by the first segment waited behind them (first byte 9-15 ms in 2 of
            // 6 runs). One work item per segment lets it run between them.
            await Task.Yield();
        }
    }

    private SegmentBuffer? ReadFile(string name, Entry entry, ArrayPool<byte> pool)
    {
        SegmentBuffer? buffer = null;
        byte[]? meta = null;
        try
        {
            using var handle = File.OpenHandle(PathOf(name), FileMode.Open, FileAccess.Read, FileShare.Read | FileShare.Delete);
            Span<byte> header = stackalloc byte[HeaderSize];
            if (RandomAccess.Read(handle, header, 0) != HeaderSize
                || !TryParseHeader(header, out var metaLength, out var length, out var crc, out _)
                || length != entry.Size
                || RandomAccess.GetLength(handle) != HeaderSize + metaLength + length)
            {
                return Corrupt(name, entry, "a header that does not match the index");
            }

            meta = ArrayPool<byte>.Shared.Rent(metaLength);
            if (RandomAccess.Read(handle, meta.AsSpan(0, metaLength), HeaderSize) != metaLength
                || ParseMeta(meta.AsSpan(0, metaLength), length) is not { } part)
            {
                return Corrupt(name, entry, "a part header that cannot be read");
            }

            var hash = new System.IO.Hashing.Crc32();
            hash.Append(meta.AsSpan(0, metaLength));
            buffer = new SegmentBuffer(pool, null, null, ProviderName);
            buffer.Begin(part);
            long offset = HeaderSize + metaLength;
            while (buffer.Written < length)
            {
                var span = buffer.GetSpan();
                var read = RandomAccess.Read(handle, span, offset);
                if (read <= 0)
                    return Corrupt(name, entry, "a file shorter than its header says");
                hash.Append(span[..read]);
                buffer.Advance(read);
                offset += read;
            }

            if (hash.GetCurrentHashAsUInt32() != crc)
                return Corrupt(name, entry, "bytes that do not match their CRC-32");

            buffer.Complete(new YencTrailer(length, part.Part, null, null));
            Interlocked.Increment(ref _hits);
            Interlocked.Add(ref _hitBytes, length);
            var found = buffer;
            buffer = null;
            return found;
        }
        catch (YencException)
        {
            return Corrupt(name, entry, "a part header that cannot be read");
        }
        catch (Exception error) when (error is IOException or UnauthorizedAccessException)
        {
            // Gone under us (deleted by hand, evicted meanwhile) or unreadable: a miss, never a failed read.
            Forget(name, entry);
            lock (_gate)
                _misses++;
            if (error is not FileNotFoundException and not DirectoryNotFoundException)
                LogReadFailed(_logger, name, error.Message);
            return null;
        }
        finally
        {
            buffer?.Release();
            if (meta is not null)
                ArrayPool<byte>.Shared.Return(meta);
        }
    }

    private SegmentBuffer? Corrupt(string name, Entry entry, string what)
    {
        Interlocked.Increment(ref _corrupt);
        lock (_gate)
            _misses++;
        LogCorrupt(_logger, name, what);
        Forget(name, entry);
        TryDelete(PathOf(name));
        return null;
    }
}

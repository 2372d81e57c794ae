using System.Text;
using Microsoft.Win32.SafeHandles;

namespace NzbDav.Streaming.Disk;

// Writes: one loop writes queued segments in place and evicts to stay within the size.
public sealed partial class DiskSegmentStore
{
    private async Task WriteLoopAsync()
    {
        var chunks = new List<ReadOnlyMemory<byte>>(16);
        await foreach (var pending in _writes.Reader.ReadAllAsync().ConfigureAwait(false))
        {
            var retry = pending.Retry;
            try
            {
                if (Degraded is null || retry)
                {
                    WriteOne(pending, chunks);
                    if (retry)
                        Recovered();
                }
                else
                {
                    Interlocked.Increment(ref _dropped);
                }
            }
            catch (Exception error) when (error is IOException or UnauthorizedAccessException)
            {
                Interlocked.Increment(ref _dropped);
                Degrade($"writing to {_options.Path} failed: {error.Message}");
            }
            finally
            {
                chunks.Clear();
                if (retry)
                    Volatile.Write(ref _retrying, 0);
                Interlocked.Add(ref _queuedBytes, -pending.Buffer.Size);
                pending.Buffer.Release();
                EndWrite();
            }
        }
    }

    private void WriteOne(PendingWrite pending, List<ReadOnlyMemory<byte>> chunks)
    {
        lock (_gate)
        {
            if (_entries.TryGetValue(pending.Name, out var known))
            {
                Touch(known, pending.Kind);
                return;
            }
        }

        var buffer = pending.Buffer;
        var part = buffer.Header!;
        var nameBytes = Encoding.UTF8.GetByteCount(part.FileName) <= MaxNameBytes ? Encoding.UTF8.GetBytes(part.FileName) : [];
        var head = new byte[HeaderSize + FixedMetaSize + nameBytes.Length];
        var meta = head.AsSpan(HeaderSize);
        WriteMeta(meta, part, nameBytes);
        buffer.AddChunksTo(chunks);
        var hash = new System.IO.Hashing.Crc32();
        hash.Append(meta);
        foreach (var chunk in chunks)
            hash.Append(chunk.Span);
        WriteHeader(head, meta.Length, buffer.Size, hash.GetCurrentHashAsUInt32(), pending.Kind);
        chunks.Insert(0, head);

        // Written in place, no rename: the index learns of the file only once it is whole, and a
        // file a crash cut short fails the length check at the next start (or its CRC at a read).
        var path = PathOf(pending.Name);
        var folder = pending.Name[..2];
        if (_folders.Add(folder))
            Directory.CreateDirectory(System.IO.Path.Combine(_options.Path, folder));
        SafeFileHandle handle;
        try
        {
            handle = File.OpenHandle(path, FileMode.Create, FileAccess.Write, FileShare.Read | FileShare.Delete);
        }
        catch (DirectoryNotFoundException)
        {
            // The folder went under us (deleted by hand): make it again, once.
            _folders.Clear();
            _folders.Add(folder);
            Directory.CreateDirectory(System.IO.Path.Combine(_options.Path, folder));
            handle = File.OpenHandle(path, FileMode.Create, FileAccess.Write, FileShare.Read | FileShare.Delete);
        }
        using (handle)
            RandomAccess.Write(handle, chunks, 0);

        List<string>? evicted;
        lock (_gate)
        {
            var entry = new Entry(pending.Name, buffer.Size, pending.Kind);
            _entries[pending.Name] = entry;
            Link(entry);
            evicted = EvictLocked();
        }

        Interlocked.Increment(ref _written);
        Interlocked.Add(ref _writtenBytes, buffer.Size);
        if (evicted is not null)
        {
            foreach (var name in evicted)
                TryDelete(PathOf(name));
        }
    }

    /// <summary>Drops least recently used segments until the store fits: playback first, probes beyond their share, then any.</summary>
    private List<string>? EvictLocked()
    {
        List<string>? evicted = null;
        var maxBytes = MaxBytes;
        var probeLimit = (long)(maxBytes * _options.ProbeShare);
        while (_bytes > maxBytes)
        {
            var from = _probeBytes > probeLimit || _playback.First is null ? _probe : _playback;
            var victim = from.First!.Value;
            if (victim.Kind == DiskSegmentKind.Probe)
                _evictedProbes++;
            else
                _evictedPlayback++;
            Unlink(victim);
            _entries.Remove(victim.Name);
            (evicted ??= []).Add(victim.Name);
        }

        return evicted;
    }
}

using System.Buffers;

namespace NzbDav.Streaming.Tests.Support;

/// <summary>An array pool that counts what is rented and not yet returned.</summary>
internal sealed class CountingArrayPool : ArrayPool<byte>
{
    private readonly ArrayPool<byte> _inner = Create(64 * 1024, 512);
    private long _rented;
    private long _outstanding;

    public long Outstanding => Interlocked.Read(ref _outstanding);

    public long Rented => Interlocked.Read(ref _rented);

    public override byte[] Rent(int minimumLength)
    {
        Interlocked.Increment(ref _rented);
        Interlocked.Increment(ref _outstanding);
        return _inner.Rent(minimumLength);
    }

    public override void Return(byte[] array, bool clearArray = false)
    {
        Interlocked.Decrement(ref _outstanding);
        _inner.Return(array, clearArray);
    }
}

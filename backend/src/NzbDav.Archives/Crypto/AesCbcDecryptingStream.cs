using System.Buffers;
using System.Security.Cryptography;
using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Crypto;

/// <summary>
/// Seekable plaintext view of AES-CBC ciphertext. CBC lets any block be decrypted from the
/// ciphertext block before it, so a seek costs one extra 16-byte block, not a replay from the start.
/// The ciphertext is zero-padded to 16 bytes; the plaintext is cut at <see cref="Length"/>, and may
/// start some bytes into the decrypted data (an entry in the middle of a 7z encrypted folder).
/// </summary>
public sealed class AesCbcDecryptingStream : ReadOnlySeekableStream
{
    private const int BlockSize = 16;
    private const int MaxChunk = 64 * 1024;

    private readonly Stream _ciphertext;
    private readonly Aes _aes;
    private readonly byte[] _initialIv;
    private readonly byte[] _chainIv = new byte[BlockSize];
    private readonly bool _leaveOpen;
    private readonly long _plaintextOffset;
    private long _chainBlock = -1;

    /// <summary>
    /// Wraps <paramref name="ciphertext"/> (seekable, length a multiple of 16 and at least
    /// <paramref name="plaintextLength"/>) decrypted with <paramref name="key"/> and <paramref name="iv"/>.
    /// </summary>
    public AesCbcDecryptingStream(Stream ciphertext, byte[] key, byte[] iv, long plaintextLength, bool leaveOpen)
        : this(ciphertext, key, iv, 0, plaintextLength, leaveOpen)
    {
    }

    /// <summary>
    /// Wraps <paramref name="ciphertext"/> decrypted with <paramref name="key"/> and <paramref name="iv"/>;
    /// the stream's bytes are the <paramref name="plaintextLength"/> decrypted bytes from
    /// <paramref name="plaintextOffset"/> on, which the ciphertext (seekable, whole blocks) must cover.
    /// </summary>
    public AesCbcDecryptingStream(Stream ciphertext, byte[] key, byte[] iv, long plaintextOffset, long plaintextLength, bool leaveOpen)
    {
        ArgumentNullException.ThrowIfNull(ciphertext);
        if (plaintextLength < 0 || plaintextOffset < 0 || !ciphertext.CanSeek || ciphertext.Length % BlockSize != 0 || ciphertext.Length - plaintextOffset < plaintextLength)
        {
            throw new ArgumentException($"ciphertext must be seekable, a multiple of {BlockSize} bytes and at least {plaintextOffset} + {plaintextLength} bytes long", nameof(ciphertext));
        }

        if (iv.Length != BlockSize)
        {
            throw new ArgumentException("the IV must be 16 bytes", nameof(iv));
        }

        _ciphertext = ciphertext;
        _aes = Aes.Create();
        _aes.Key = key;
        _initialIv = iv;
        _leaveOpen = leaveOpen;
        _plaintextOffset = plaintextOffset;
        Length = plaintextLength;
    }

    /// <inheritdoc />
    public override long Length { get; }

    /// <inheritdoc />
    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    /// <inheritdoc />
    public override int Read(Span<byte> buffer)
    {
        if (!TryPlan(buffer.Length, out var plan))
        {
            return 0;
        }

        var cipher = ArrayPool<byte>.Shared.Rent(plan.CipherBytes);
        var plain = ArrayPool<byte>.Shared.Rent(plan.CipherBytes);
        try
        {
            if (plan.FirstBlock != 0 && plan.FirstBlock != _chainBlock)
            {
                _ciphertext.Position = (plan.FirstBlock - 1) * BlockSize;
                _ciphertext.ReadExactly(_chainIv);
            }

            _ciphertext.Position = plan.FirstBlock * BlockSize;
            _ciphertext.ReadExactly(cipher.AsSpan(0, plan.CipherBytes));
            return Decrypt(plan, cipher, plain, buffer);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(cipher);
            ArrayPool<byte>.Shared.Return(plain, clearArray: true);
        }
    }

    /// <inheritdoc />
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    /// <inheritdoc />
    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (!TryPlan(buffer.Length, out var plan))
        {
            return 0;
        }

        var cipher = ArrayPool<byte>.Shared.Rent(plan.CipherBytes);
        var plain = ArrayPool<byte>.Shared.Rent(plan.CipherBytes);
        try
        {
            if (plan.FirstBlock != 0 && plan.FirstBlock != _chainBlock)
            {
                _ciphertext.Position = (plan.FirstBlock - 1) * BlockSize;
                await _ciphertext.ReadExactlyAsync(_chainIv, cancellationToken).ConfigureAwait(false);
            }

            _ciphertext.Position = plan.FirstBlock * BlockSize;
            await _ciphertext.ReadExactlyAsync(cipher.AsMemory(0, plan.CipherBytes), cancellationToken).ConfigureAwait(false);
            return Decrypt(plan, cipher, plain, buffer.Span);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(cipher);
            ArrayPool<byte>.Shared.Return(plain, clearArray: true);
        }
    }

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _aes.Dispose();
            if (!_leaveOpen)
            {
                _ciphertext.Dispose();
            }
        }

        base.Dispose(disposing);
    }

    private bool TryPlan(int requested, out ReadPlan plan)
    {
        plan = default;
        if (requested == 0 || Position >= Length)
        {
            return false;
        }

        var wanted = (int)Math.Min(Math.Min(requested, MaxChunk), Length - Position);
        var decrypted = _plaintextOffset + Position;
        var skip = (int)(decrypted % BlockSize);
        var blocks = (skip + wanted + BlockSize - 1) / BlockSize;
        plan = new ReadPlan(decrypted / BlockSize, skip, wanted, blocks * BlockSize);
        return true;
    }

    private int Decrypt(ReadPlan plan, byte[] cipher, byte[] plain, Span<byte> destination)
    {
        ReadOnlySpan<byte> iv = plan.FirstBlock == 0 ? _initialIv : _chainIv;
        _aes.DecryptCbc(cipher.AsSpan(0, plan.CipherBytes), iv, plain.AsSpan(0, plan.CipherBytes), PaddingMode.None);

        // The last ciphertext block read is the IV of the next one: sequential reads need no extra fetch.
        cipher.AsSpan(plan.CipherBytes - BlockSize, BlockSize).CopyTo(_chainIv);
        _chainBlock = plan.FirstBlock + (plan.CipherBytes / BlockSize);
        plain.AsSpan(plan.Skip, plan.Count).CopyTo(destination);
        Position += plan.Count;
        return plan.Count;
    }

    private readonly record struct ReadPlan(long FirstBlock, int Skip, int Count, int CipherBytes);
}

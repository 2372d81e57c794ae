using System.Security.Cryptography;
using NzbDav.Archives.Crypto;

namespace NzbDav.Archives.Tests.Crypto;

public sealed class AesCbcDecryptingStreamTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(16)]
    [InlineData(100_003)]
    public async Task Random_seeks_and_reads_return_the_plaintext(int length)
    {
        var (plain, stream) = Encrypted(length, seed: length);
        using (stream)
        {
            Assert.Equal(length, stream.Length);
            var random = new Random(42);
            for (var i = 0; i < 200; i++)
            {
                var offset = random.Next(0, length + 1);
                var count = random.Next(0, 5000);
                stream.Position = offset;
                var buffer = new byte[count];
                var read = i % 2 == 0
                    ? await stream.ReadAtLeastAsync(buffer, count, throwOnEndOfStream: false, Token)
                    : stream.ReadAtLeast(buffer, count, throwOnEndOfStream: false);
                Assert.Equal(Math.Min(count, length - offset), read);
                Assert.Equal(plain.AsSpan(offset, read).ToArray(), buffer.AsSpan(0, read).ToArray());
            }
        }
    }

    [Fact]
    public async Task Sequential_copy_equals_the_plaintext()
    {
        var (plain, stream) = Encrypted(300_001, seed: 7);
        using (stream)
        {
            var copy = new MemoryStream();
            await stream.CopyToAsync(copy, 4099, Token);
            Assert.Equal(plain, copy.ToArray());
        }
    }

    [Theory]
    [InlineData(0, 1000)]
    [InlineData(5, 1000)]
    [InlineData(16, 33)]
    [InlineData(27, 70_001)]
    [InlineData(31, 0)]
    public async Task A_plaintext_that_starts_inside_the_decrypted_data_seeks_anywhere(int plaintextOffset, int length)
    {
        var (decrypted, cipher, key, iv) = EncryptedBytes(plaintextOffset + length, seed: length + plaintextOffset);
        using var stream = new AesCbcDecryptingStream(new MemoryStream(cipher), key, iv, plaintextOffset, length, leaveOpen: false);
        var plain = decrypted.AsSpan(plaintextOffset, length).ToArray();

        Assert.Equal(length, stream.Length);
        await RandomReads.MatchAsync(stream, plain, seed: 3, count: 100, maxRead: 2000, Token);
    }

    [Fact]
    public void Ciphertext_shorter_than_offset_and_plaintext_is_rejected() =>
        Assert.Throws<ArgumentException>(() => new AesCbcDecryptingStream(new MemoryStream(new byte[32]), new byte[32], new byte[16], 17, 16, leaveOpen: false));

    [Fact]
    public void Ciphertext_that_is_not_block_aligned_is_rejected()
    {
        Assert.Throws<ArgumentException>(() => new AesCbcDecryptingStream(new MemoryStream(new byte[17]), new byte[32], new byte[16], 17, leaveOpen: false));
        Assert.Throws<ArgumentException>(() => new AesCbcDecryptingStream(new MemoryStream(new byte[16]), new byte[32], new byte[16], 17, leaveOpen: false));
    }

    private static (byte[] Plain, byte[] Cipher, byte[] Key, byte[] Iv) EncryptedBytes(int length, int seed)
    {
        var random = new Random(seed);
        var plain = new byte[length];
        random.NextBytes(plain);
        var key = new byte[32];
        var iv = new byte[16];
        random.NextBytes(key);
        random.NextBytes(iv);
        var padded = new byte[(length + 15) & ~15];
        plain.CopyTo(padded, 0);
        using var aes = Aes.Create();
        aes.Key = key;
        return (plain, aes.EncryptCbc(padded, iv, PaddingMode.None), key, iv);
    }

    private static (byte[] Plain, AesCbcDecryptingStream Stream) Encrypted(int length, int seed)
    {
        var (plain, cipher, key, iv) = EncryptedBytes(length, seed);
        return (plain, new AesCbcDecryptingStream(new MemoryStream(cipher), key, iv, length, leaveOpen: false));
    }
}

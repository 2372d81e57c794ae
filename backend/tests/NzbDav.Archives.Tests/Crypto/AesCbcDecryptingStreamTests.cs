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

    [Fact]
    public void Ciphertext_that_is_not_block_aligned_is_rejected()
    {
        Assert.Throws<ArgumentException>(() => new AesCbcDecryptingStream(new MemoryStream(new byte[17]), new byte[32], new byte[16], 17, leaveOpen: false));
        Assert.Throws<ArgumentException>(() => new AesCbcDecryptingStream(new MemoryStream(new byte[16]), new byte[32], new byte[16], 17, leaveOpen: false));
    }

    private static (byte[] Plain, AesCbcDecryptingStream Stream) Encrypted(int length, int seed)
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
        var cipher = aes.EncryptCbc(padded, iv, PaddingMode.None);
        return (plain, new AesCbcDecryptingStream(new MemoryStream(cipher), key, iv, length, leaveOpen: false));
    }
}

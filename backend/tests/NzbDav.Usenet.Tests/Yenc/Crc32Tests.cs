using System.Text;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Yenc;

// The CRC comes from an unexported-by-contract runtime symbol (docs/dependencies.md): these fail
// loudly if a runtime renames it or its algorithm is not IEEE CRC-32.
public sealed class Crc32Tests
{
    [Fact]
    public void Check_value_of_the_standard_test_vector()
    {
        Assert.Equal(0xCBF43926u, Crc32.Compute("123456789"u8));
    }

    [Fact]
    public void Empty_input_is_zero()
    {
        Assert.Equal(0u, Crc32.Compute(ReadOnlySpan<byte>.Empty));
    }

    [Fact]
    public void Appending_pieces_equals_computing_the_whole()
    {
        var data = new byte[100_003];
        new Random(7).NextBytes(data);
        var crc = 0u;
        foreach (var size in new[] { 1, 15, 4096, 65_536, 30_355 })
        {
            var offset = data.Length - RemainingAfter(size);
            crc = Crc32.Append(crc, data.AsSpan(offset, size));
        }

        Assert.Equal(Crc32.Compute(data), crc);

        int RemainingAfter(int size) => new[] { 1, 15, 4096, 65_536, 30_355 }.SkipWhile(s => s != size).Sum();
    }

    [Fact]
    public void Known_ascii_text()
    {
        // CRC-32 of "The quick brown fox jumps over the lazy dog" is 0x414FA339.
        Assert.Equal(0x414FA339u, Crc32.Compute(Encoding.ASCII.GetBytes("The quick brown fox jumps over the lazy dog")));
    }
}

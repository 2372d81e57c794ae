using System.Text;
using NzbDav.MockNntp.Yenc;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Yenc;

/// <summary>
/// The decoder's running CRC-32 (System.IO.Hashing) against the standard IEEE check values, fed in
/// pieces as a network reader feeds it, and across <see cref="YencDecoder.Reset"/>.
/// </summary>
public sealed class Crc32Tests
{
    [Theory]
    [InlineData("123456789", 0xCBF43926u)]
    [InlineData("The quick brown fox jumps over the lazy dog", 0x414FA339u)]
    public void The_decoder_reports_the_standard_check_value(string text, uint expected)
    {
        var decoder = new YencDecoder();
        var result = YencDriver.Chunked(decoder, Wire(Encoding.ASCII.GetBytes(text)), () => 1, () => 3);

        Assert.True(result.Completed);
        Assert.Equal(expected, decoder.Crc32);
    }

    [Fact]
    public void Appending_pieces_equals_hashing_the_whole_and_reset_starts_over()
    {
        var data = new byte[100_003];
        new Random(7).NextBytes(data);
        var decoder = new YencDecoder();
        YencDriver.Chunked(decoder, Wire(data), YencDriver.RandomSizes(11, 70_000), YencDriver.RandomSizes(12, 65_536));
        Assert.Equal(System.IO.Hashing.Crc32.HashToUInt32(data), decoder.Crc32);

        decoder.Reset();
        YencDriver.Whole(decoder, Wire("123456789"u8.ToArray()));
        Assert.Equal(0xCBF43926u, decoder.Crc32);
    }

    private static byte[] Wire(byte[] data)
    {
        var spec = new YencPartSpec("crc.bin", data.Length, 1, 1, 0);
        return [.. YencEncoder.Encode(data, spec, new YencEncoderOptions()), .. ".\r\n"u8];
    }
}

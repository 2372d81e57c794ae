using NzbDav.Usenet.Configuration;

namespace NzbDav.Server.Tests.Configuration;

public sealed class ByteSizeTests
{
    [Theory]
    [InlineData("67108864", 67_108_864L)]
    [InlineData("67,108,864", 67_108_864L)]
    [InlineData("64 MiB", 67_108_864L)]
    [InlineData("64MB", 67_108_864L)]
    [InlineData("64mb", 67_108_864L)]
    [InlineData("64 m", 67_108_864L)]
    [InlineData("  64 MiB  ", 67_108_864L)]
    [InlineData("1.5 GiB", 1_610_612_736L)]
    [InlineData("1.5GB", 1_610_612_736L)]
    [InlineData("0.5 KiB", 512L)]
    [InlineData("512 B", 512L)]
    [InlineData("512 bytes", 512L)]
    [InlineData("0", 0L)]
    [InlineData("2 TiB", 2_199_023_255_552L)]
    public void Sizes_are_read_in_bytes_and_binary_units(string text, long expected)
    {
        Assert.True(ByteSize.TryParse(text, out var bytes, out var error), error);
        Assert.Equal(expected, bytes);
    }

    [Theory]
    [InlineData("abc")]
    [InlineData("")]
    [InlineData("-5")]
    [InlineData("64 MiBs")]
    [InlineData("64 PB")]
    [InlineData("1.2.3 MB")]
    [InlineData("MB")]
    [InlineData("99999999999999999999 TiB")]
    public void Anything_else_is_refused_with_what_is_accepted(string text)
    {
        Assert.False(ByteSize.TryParse(text, out _, out var error));
        Assert.False(string.IsNullOrEmpty(error));
    }

    [Theory]
    [InlineData(67_108_864L, "64 MiB")]
    [InlineData(117_440_512L, "112 MiB")]
    [InlineData(1_610_612_736L, "1.5 GiB")]
    [InlineData(1024L, "1 KiB")]
    [InlineData(1_073_741_824L, "1 GiB")]
    [InlineData(1000L, "1,000 B")]
    [InlineData(1_000_000_000L, "1,000,000,000 B")]
    [InlineData(0L, "0 B")]
    public void Counts_are_written_exactly_in_the_largest_unit_that_states_them(long bytes, string expected)
    {
        Assert.Equal(expected, ByteSize.Format(bytes));
        Assert.True(ByteSize.TryParse(expected, out var back, out _));
        Assert.Equal(bytes, back);
    }

    [Theory]
    [InlineData(303_904L, "304 KB")]
    [InlineData(999L, "999 B")]
    [InlineData(1_500_000L, "1.5 MB")]
    [InlineData(41_943_040L, "41.9 MB")]
    [InlineData(0L, "0 B")]
    [InlineData(-5L, "0 B")]
    public void Sizes_for_reading_are_rounded_in_decimal_units_as_the_UI_shows_them(long bytes, string expected) =>
        Assert.Equal(expected, ByteSize.Approximate(bytes));
}

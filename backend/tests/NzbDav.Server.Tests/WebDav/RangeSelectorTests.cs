using Microsoft.Extensions.Primitives;
using NzbDav.Server.WebDav;

namespace NzbDav.Server.Tests.WebDav;

public sealed class RangeSelectorTests
{
    private const string ETag = "\"abc-64\"";
    private static readonly DateTimeOffset Modified = new(2026, 11, 1, 12, 0, 5, TimeSpan.Zero);

    [Theory]
    [InlineData("bytes=0-99", 0, 99)]
    [InlineData("bytes=0-0", 0, 0)]
    [InlineData("bytes=990-", 990, 999)]
    [InlineData("bytes=500-5000", 500, 999)]
    [InlineData("bytes=-10", 990, 999)]
    [InlineData("bytes=-5000", 0, 999)]
    [InlineData("bytes=-99999999999999999999999", 0, 999)]
    [InlineData("BYTES=1-2", 1, 2)]
    [InlineData(" bytes=1-2 ", 1, 2)]
    [InlineData("bytes=, 3-4 ,", 3, 4)]
    [InlineData("bytes=999-999", 999, 999)]
    public void Single_satisfiable_ranges_are_partial(string header, long from, long to)
    {
        var (outcome, range) = RangeSelector.Select(header, StringValues.Empty, 1000, ETag, Modified);

        Assert.Equal(RangeOutcome.Partial, outcome);
        Assert.Equal(new ByteRange(from, to), range);
    }

    [Theory]
    [InlineData("bytes=1000-")]
    [InlineData("bytes=1000-2000")]
    [InlineData("bytes=-0")]
    [InlineData("bytes=99999999999999999999999-")]
    public void Ranges_past_the_end_are_unsatisfiable(string header)
    {
        Assert.Equal(RangeOutcome.Unsatisfiable, RangeSelector.Select(header, StringValues.Empty, 1000, ETag, Modified).Outcome);
    }

    [Fact]
    public void Any_range_of_an_empty_file_is_unsatisfiable()
    {
        Assert.Equal(RangeOutcome.Unsatisfiable, RangeSelector.Select("bytes=0-", StringValues.Empty, 0, ETag, Modified).Outcome);
        Assert.Equal(RangeOutcome.Unsatisfiable, RangeSelector.Select("bytes=-5", StringValues.Empty, 0, ETag, Modified).Outcome);
    }

    [Theory]
    [InlineData("bytes=5-1")]
    [InlineData("bytes=abc")]
    [InlineData("bytes=1-2-3")]
    [InlineData("bytes=-")]
    [InlineData("bytes=")]
    [InlineData("bytes=+1-2")]
    [InlineData("bytes=1 -2")]
    [InlineData("bytes 1-2")]
    [InlineData("items=0-5")]
    [InlineData("bytes=0-1,5-6")]
    [InlineData("bytes=0-1,2000-3000")]
    [InlineData("")]
    public void Malformed_foreign_or_multiple_ranges_are_ignored(string header)
    {
        Assert.Equal(RangeOutcome.Full, RangeSelector.Select(header, StringValues.Empty, 1000, ETag, Modified).Outcome);
    }

    [Fact]
    public void Two_range_headers_are_ignored()
    {
        Assert.Equal(RangeOutcome.Full, RangeSelector.Select(new StringValues(["bytes=0-1", "bytes=2-3"]), StringValues.Empty, 1000, ETag, Modified).Outcome);
    }

    [Theory]
    [InlineData(ETag, RangeOutcome.Partial)]
    [InlineData("\"other\"", RangeOutcome.Full)]
    [InlineData("W/" + ETag, RangeOutcome.Full)]
    [InlineData("Sun, 01 Nov 2026 12:00:05 GMT", RangeOutcome.Partial)]
    [InlineData("Sunday, 01-Nov-26 12:00:05 GMT", RangeOutcome.Partial)]
    [InlineData("Sun, 01 Nov 2026 12:00:04 GMT", RangeOutcome.Full)]
    [InlineData("Sun, 01 Nov 2026 12:00:06 GMT", RangeOutcome.Full)]
    [InlineData("yesterday", RangeOutcome.Full)]
    public void If_range_uses_strong_etag_or_exact_date(string ifRange, RangeOutcome expected)
    {
        Assert.Equal(expected, RangeSelector.Select("bytes=0-9", ifRange, 1000, ETag, Modified).Outcome);
    }

    [Fact]
    public void A_failed_if_range_turns_an_unsatisfiable_range_into_a_full_answer()
    {
        Assert.Equal(RangeOutcome.Full, RangeSelector.Select("bytes=5000-", "\"other\"", 1000, ETag, Modified).Outcome);
        Assert.Equal(RangeOutcome.Unsatisfiable, RangeSelector.Select("bytes=5000-", ETag, 1000, ETag, Modified).Outcome);
    }
}

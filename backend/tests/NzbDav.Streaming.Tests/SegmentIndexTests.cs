using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming.Tests;

public sealed class SegmentIndexTests
{
    private static readonly string[] TenIds = Enumerable.Range(1, 10).Select(i => $"part{i}@test").ToArray();

    private static YencHeader Part(long fileSize, long begin, long size) => new("f.bin", fileSize, 128, null, null, begin, size);

    [Fact]
    public void Equal_parts_map_offsets_by_division_and_the_last_part_is_short()
    {
        var index = new SegmentIndex(TenIds, Part(9 * 1000 + 300, 0, 1000));

        Assert.True(index.IsRegular);
        Assert.Equal(9300, index.FileSize);
        Assert.Equal(SegmentLocation.Found(0), index.Locate(0));
        Assert.Equal(SegmentLocation.Found(4), index.Locate(4999));
        Assert.Equal(SegmentLocation.Found(9), index.Locate(9299));
        Assert.True(index.TryGetRange(9, out var begin, out var length));
        Assert.Equal((9000L, 300L), (begin, length));
        Assert.True(index.Observe(9, Part(9300, 9000, 300)));
        Assert.True(index.IsRegular);
    }

    [Fact]
    public void A_segment_count_that_does_not_fit_equal_parts_starts_irregular()
    {
        var index = new SegmentIndex(TenIds, Part(20_000, 0, 1000));

        Assert.False(index.IsRegular);
        Assert.Equal(SegmentLocation.Found(0), index.Locate(999));
        Assert.False(index.TryGetRange(5, out _, out _));
    }

    [Fact]
    public void A_header_that_disagrees_turns_the_index_irregular_and_is_believed()
    {
        var index = new SegmentIndex(TenIds, Part(9300, 0, 1000));

        Assert.False(index.Observe(3, Part(9300, 2900, 900)));

        Assert.False(index.IsRegular);
        Assert.True(index.TryGetRange(3, out var begin, out var length));
        Assert.Equal((2900L, 900L), (begin, length));
        Assert.Equal(SegmentLocation.Found(3), index.Locate(3000));
        Assert.Equal(SegmentLocation.Found(0), index.Locate(10));
        // Between the known parts 0 and 3 the guess is interpolated, never assumed.
        Assert.Equal(SegmentLocationKind.Probe, index.Locate(1500).Kind);
        Assert.InRange(index.Locate(1500).Segment, 1, 2);
    }

    [Fact]
    public void Interpolation_search_converges_on_uneven_parts()
    {
        var sizes = new long[] { 1000, 400, 400, 2000, 1000, 100, 100, 3000, 500, 700 };
        var begins = new long[sizes.Length];
        for (var i = 1; i < sizes.Length; i++)
        {
            begins[i] = begins[i - 1] + sizes[i - 1];
        }
        var fileSize = begins[^1] + sizes[^1];
        var index = new SegmentIndex(TenIds, Part(fileSize, 0, sizes[0]));
        index.Observe(1, Part(fileSize, begins[1], sizes[1]));

        for (var offset = 0L; offset < fileSize; offset += 37)
        {
            var probes = 0;
            SegmentLocation location;
            while ((location = index.Locate(offset)).Kind == SegmentLocationKind.Probe)
            {
                var probe = location.Segment;
                index.Observe(probe, Part(fileSize, begins[probe], sizes[probe]));
                Assert.True(++probes <= sizes.Length);
            }
            Assert.Equal(SegmentLocationKind.Found, location.Kind);
            Assert.InRange(offset, begins[location.Segment], begins[location.Segment] + sizes[location.Segment] - 1);
        }
    }

    [Fact]
    public void A_hole_between_known_parts_is_reported_as_a_gap()
    {
        var ids = TenIds[..3];
        var index = new SegmentIndex(ids, Part(3000, 0, 1000));
        index.Observe(1, Part(3000, 2000, 1000));

        var location = index.Locate(1500);

        Assert.Equal(SegmentLocationKind.Gap, location.Kind);
        Assert.Equal((1000L, 2000L), (location.GapStart, location.GapEnd));
    }

    [Fact]
    public void Headers_contradicting_the_file_are_rejected()
    {
        var index = new SegmentIndex(TenIds, Part(9300, 0, 1000));

        Assert.Throws<YencException>(() => index.Observe(2, Part(9999, 2000, 1000)));
        Assert.Throws<YencException>(() => index.Observe(2, Part(9300, 9000, 1000)));
        index.Observe(2, Part(9300, 2100, 1000));
        Assert.Throws<YencException>(() => index.Observe(2, Part(9300, 2000, 1000)));
        Assert.Throws<YencException>(() => new SegmentIndex(TenIds, Part(100, 50, 200)));
    }
}

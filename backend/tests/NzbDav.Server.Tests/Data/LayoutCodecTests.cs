using NzbDav.Data.Layout;

namespace NzbDav.Server.Tests.Data;

public sealed class LayoutCodecTests
{
    [Fact]
    public void Round_trips_parts_and_ids()
    {
        var layout = new DavFileLayout(
        [
            LayoutPart.WholeFile(["a1@x", "a2@x", "b@y", "ü@z"], 1000, 400),
            new LayoutPart(["c@x"], 50, 50, 10, 20),
        ]);

        var decoded = DavFileLayoutCodec.Decode(DavFileLayoutCodec.Encode(layout));

        Assert.Equal(2, decoded.Parts.Count);
        Assert.Equal(layout.Parts[0].MessageIds, decoded.Parts[0].MessageIds);
        Assert.Equal(layout.Parts[1].MessageIds, decoded.Parts[1].MessageIds);
        Assert.Equal(1020, decoded.Length);
        Assert.Equal((10L, 20L, 50L, 50L), (decoded.Parts[1].RangeOffset, decoded.Parts[1].RangeLength, decoded.Parts[1].FileSize, decoded.Parts[1].PartSize));
    }

    [Fact]
    public void Hundred_thousand_sequential_ids_stay_compact()
    {
        var ids = Enumerable.Range(1, 100_000).Select(i => $"part{i}of100000.AbCdEfGhIjKlMnOp@news.example.com").ToArray();
        var blob = DavFileLayoutCodec.Encode(new DavFileLayout([LayoutPart.WholeFile(ids, 70_000_000_000, 700_000)]));

        Assert.True(blob.Length < ids.Length * 12, $"{blob.Length} bytes for {ids.Length} ids");
        Assert.Equal(ids, DavFileLayoutCodec.Decode(blob).Parts[0].MessageIds);
    }

    [Fact]
    public void Truncated_or_foreign_blobs_fail_with_a_typed_error()
    {
        var blob = DavFileLayoutCodec.Encode(new DavFileLayout([LayoutPart.WholeFile(["abc@d", "abe@d"], 10, 5)]));

        for (var length = 0; length < blob.Length; length++)
        {
            Assert.Throws<LayoutFormatException>(() => DavFileLayoutCodec.Decode(blob.AsSpan(0, length)));
        }

        Assert.Throws<LayoutFormatException>(() => DavFileLayoutCodec.Decode("X1"u8));
        Assert.Throws<LayoutFormatException>(() => DavFileLayoutCodec.Decode([(byte)'L', 9]));
    }
}

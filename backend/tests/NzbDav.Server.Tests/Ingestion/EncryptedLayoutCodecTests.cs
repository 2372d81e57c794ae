using NzbDav.Data.Layout;

namespace NzbDav.Server.Tests.Ingestion;

public sealed class EncryptedLayoutCodecTests
{
    [Fact]
    public void Encrypted_layouts_round_trip_key_iv_and_plaintext_length()
    {
        var key = Enumerable.Range(1, 32).Select(i => (byte)i).ToArray();
        var iv = Enumerable.Range(100, 16).Select(i => (byte)i).ToArray();
        var layout = new DavFileLayout([new LayoutPart(["a@x", "b@x"], 1000, 600, 40, 960)], new LayoutEncryption(key, iv, 950));

        var blob = DavFileLayoutCodec.Encode(layout);
        var decoded = DavFileLayoutCodec.Decode(blob);

        Assert.Equal(950, decoded.Length);
        Assert.Equal(960, decoded.StoredLength);
        Assert.Equal(key, decoded.Encryption!.Key);
        Assert.Equal(iv, decoded.Encryption.Iv);
        for (var length = 0; length < blob.Length; length++)
            Assert.Throws<LayoutFormatException>(() => DavFileLayoutCodec.Decode(blob.AsSpan(0, length)));
    }

    [Fact]
    public void A_plaintext_offset_round_trips_in_version_three_and_offset_zero_keeps_version_two()
    {
        var key = Enumerable.Range(1, 32).Select(i => (byte)i).ToArray();
        var part = new LayoutPart(["a@x", "b@x"], 1000, 600, 32, 960);

        var withOffset = DavFileLayoutCodec.Encode(new DavFileLayout([part], new LayoutEncryption(key, new byte[16], 900, 27)));
        var withoutOffset = DavFileLayoutCodec.Encode(new DavFileLayout([part], new LayoutEncryption(key, new byte[16], 900)));

        Assert.Equal(3, withOffset[1]);
        Assert.Equal(2, withoutOffset[1]);
        Assert.Equal(27, DavFileLayoutCodec.Decode(withOffset).Encryption!.PlaintextOffset);
        Assert.Equal(900, DavFileLayoutCodec.Decode(withOffset).Length);
        Assert.Equal(0, DavFileLayoutCodec.Decode(withoutOffset).Encryption!.PlaintextOffset);
        for (var length = 0; length < withOffset.Length; length++)
            Assert.Throws<LayoutFormatException>(() => DavFileLayoutCodec.Decode(withOffset.AsSpan(0, length)));
        Assert.Throws<ArgumentException>(() => DavFileLayoutCodec.Encode(new DavFileLayout([part], new LayoutEncryption(key, new byte[16], 900, 61))));
    }

    [Fact]
    public void Plain_layouts_keep_the_version_one_bytes()
    {
        var blob = DavFileLayoutCodec.Encode(new DavFileLayout([LayoutPart.WholeFile(["a@x"], 10, 10)]));

        Assert.Equal(1, blob[1]);
        Assert.Null(DavFileLayoutCodec.Decode(blob).Encryption);
    }

    [Fact]
    public void Ciphertext_that_does_not_cover_the_plaintext_is_refused()
    {
        var layout = new DavFileLayout([new LayoutPart(["a@x"], 100, 100, 0, 32)], new LayoutEncryption(new byte[16], new byte[16], 40));

        Assert.Throws<ArgumentException>(() => DavFileLayoutCodec.Encode(layout));
    }
}

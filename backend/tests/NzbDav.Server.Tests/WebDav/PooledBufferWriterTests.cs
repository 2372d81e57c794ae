using NzbDav.Server.WebDav;

namespace NzbDav.Server.Tests.WebDav;

public sealed class PooledBufferWriterTests
{
    [Fact]
    public void Writes_past_the_first_array_keep_every_byte_in_order_and_a_reset_starts_over()
    {
        var expected = new byte[300_000];
        new Random(7).NextBytes(expected);
        using var writer = new PooledBufferWriter(1024);

        for (var offset = 0; offset < expected.Length;)
        {
            var count = Math.Min(expected.Length - offset, 1 + (offset % 5000));
            var span = writer.GetSpan(count);
            Assert.True(span.Length >= count);
            expected.AsSpan(offset, count).CopyTo(span);
            writer.Advance(count);
            offset += count;
        }

        Assert.Equal(expected.Length, writer.WrittenCount);
        Assert.True(writer.WrittenMemory.Span.SequenceEqual(expected));
        writer.ResetWrittenCount();
        writer.GetSpan(3)[..3].Fill(9);
        writer.Advance(3);
        Assert.Equal([9, 9, 9], writer.WrittenMemory.ToArray());
        Assert.Throws<InvalidOperationException>(() => writer.Advance(int.MaxValue / 2));
    }
}

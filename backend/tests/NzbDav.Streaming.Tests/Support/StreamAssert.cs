using NzbDav.MockNntp.Articles;

namespace NzbDav.Streaming.Tests.Support;

internal static class StreamAssert
{
    /// <summary>Reads from the current position to the end in reads of <paramref name="readSize"/> and compares every byte.</summary>
    public static async Task ReadsToEndExactlyAsync(Stream stream, MockFile file, int readSize, CancellationToken cancellationToken)
    {
        var buffer = new byte[readSize];
        var start = stream.Position;
        var offset = start;
        while (true)
        {
            var read = await stream.ReadAsync(buffer, cancellationToken);
            if (read == 0)
            {
                break;
            }
            AssertBytes(file, offset, buffer.AsSpan(0, read));
            offset += read;
        }
        Assert.Equal(file.Size, offset);
        Assert.Equal(file.Size, stream.Position);
    }

    /// <summary>Reads exactly <paramref name="count"/> bytes (or to the end) at the current position and compares them.</summary>
    public static async Task<int> ReadsExactlyAsync(Stream stream, MockFile file, int count, CancellationToken cancellationToken)
    {
        var buffer = new byte[count];
        var offset = stream.Position;
        var total = 0;
        while (total < count)
        {
            var read = await stream.ReadAsync(buffer.AsMemory(total), cancellationToken);
            if (read == 0)
            {
                break;
            }
            total += read;
        }
        Assert.Equal(Math.Min(count, Math.Max(0, file.Size - offset)), total);
        AssertBytes(file, offset, buffer.AsSpan(0, total));
        return total;
    }

    public static void AssertBytes(MockFile file, long offset, ReadOnlySpan<byte> actual)
    {
        var expected = file.ReadExpected(offset, actual.Length);
        if (!actual.SequenceEqual(expected))
        {
            var at = 0;
            while (actual[at] == expected[at])
            {
                at++;
            }
            Assert.Fail($"Byte {offset + at} differs: expected {expected[at]}, read {actual[at]}.");
        }
    }
}

namespace NzbDav.Archives.Tests;

/// <summary>Seeks a stream to random offsets and checks every read against the bytes it must serve.</summary>
internal static class RandomReads
{
    /// <param name="maxRead">Largest read, so reads cross block, folder and volume edges of the case at hand.</param>
    public static async Task MatchAsync(Stream stream, byte[] expected, int seed, int count, int maxRead, CancellationToken cancellationToken)
    {
        var random = new Random(seed);
        for (var i = 0; i < count; i++)
        {
            var offset = random.Next(0, expected.Length + 1);
            var buffer = new byte[random.Next(0, maxRead)];
            stream.Position = offset;
            var read = await stream.ReadAtLeastAsync(buffer, buffer.Length, throwOnEndOfStream: false, cancellationToken);
            Assert.Equal(Math.Min(buffer.Length, expected.Length - offset), read);
            Assert.True(expected.AsSpan(offset, read).SequenceEqual(buffer.AsSpan(0, read)), $"bytes at {offset}+{read}");
        }
    }
}

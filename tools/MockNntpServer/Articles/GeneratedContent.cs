namespace NzbDav.MockNntp.Articles;

/// <summary>
/// A large pseudo-random file that is never held in memory: part i carries block (i mod K), each
/// block encoded once at construction, so serving costs a header format and a copy, and the process
/// stays small whatever the file size. The short last part is encoded separately.
/// </summary>
internal sealed class GeneratedContent : IMockFileContent
{
    private readonly int _segmentSize;
    private readonly byte[][] _blocks;
    private readonly MockEncodedData[] _encodedBlocks;
    private readonly MockEncodedData? _encodedLast;

    public GeneratedContent(long length, int segmentSize, int seed, int distinctBlocks = 8)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(length);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(segmentSize);
        Length = length;
        _segmentSize = segmentSize;
        var parts = (length + segmentSize - 1) / segmentSize;
        var blockCount = (int)Math.Min(distinctBlocks, parts);
        _blocks = new byte[blockCount][];
        _encodedBlocks = new MockEncodedData[blockCount];
        var blockSize = (int)Math.Min(segmentSize, length);
        for (var k = 0; k < blockCount; k++)
        {
            _blocks[k] = new byte[blockSize];
            new Random(HashCode.Combine(seed, k)).NextBytes(_blocks[k]);
            _encodedBlocks[k] = YencDataLines.Encode(_blocks[k]);
        }
        var lastSize = (int)(length - ((parts - 1) * segmentSize));
        if (lastSize != blockSize)
        {
            var lastBlock = _blocks[(int)((parts - 1) % blockCount)];
            _encodedLast = YencDataLines.Encode(lastBlock.AsSpan(0, lastSize));
        }
    }

    public long Length { get; }

    public void Read(long offset, Span<byte> destination)
    {
        while (!destination.IsEmpty)
        {
            var part = offset / _segmentSize;
            var within = (int)(offset - (part * _segmentSize));
            var block = _blocks[(int)(part % _blocks.Length)];
            var count = Math.Min(destination.Length, block.Length - within);
            block.AsSpan(within, count).CopyTo(destination);
            destination = destination[count..];
            offset += count;
        }
    }

    public MockEncodedData Encode(int partIndex, long partBegin, int partSize)
    {
        if (partSize != _blocks[0].Length)
        {
            return _encodedLast ?? throw new InvalidOperationException("Only the last part may be short.");
        }
        return _encodedBlocks[partIndex % _encodedBlocks.Length];
    }
}

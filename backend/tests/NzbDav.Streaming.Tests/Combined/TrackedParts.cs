using NzbDav.Streaming.Combined;

namespace NzbDav.Streaming.Tests.Combined;

/// <summary>Builds parts over in-memory inner buffers and remembers every stream each factory opened.</summary>
internal sealed class TrackedParts
{
    private readonly List<CombinedStreamPart> _parts = [];
    private readonly List<List<TrackedStream>> _opened = [];
    private readonly List<byte> _expected = [];

    public IReadOnlyList<CombinedStreamPart> Parts => _parts;

    public byte[] Expected => [.. _expected];

    /// <summary>Every stream opened for the part at <paramref name="index"/>, oldest first.</summary>
    public IReadOnlyList<TrackedStream> OpenedFor(int index) => _opened[index];

    public IEnumerable<TrackedStream> AllOpened => _opened.SelectMany(list => list);

    /// <summary>Adds a part of <paramref name="length"/> bytes at <paramref name="offset"/> of a random inner buffer.</summary>
    public TrackedParts Add(Random random, int innerLength, int offset, int length, bool seekable = true, int? endAfter = null)
    {
        var inner = new byte[innerLength];
        random.NextBytes(inner);
        var opened = new List<TrackedStream>();
        _opened.Add(opened);
        // A part that claims more than its inner buffer holds (error tests) expects what exists.
        _expected.AddRange(inner.AsSpan(offset, Math.Min(length, innerLength - offset)).ToArray());
        _parts.Add(new CombinedStreamPart(
            ct =>
            {
                ct.ThrowIfCancellationRequested();
                var stream = new TrackedStream(inner, seekable, endAfter);
                opened.Add(stream);
                return ValueTask.FromResult<Stream>(stream);
            },
            offset,
            length));
        return this;
    }
}

using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.Testing;
using NzbDav.Usenet.Tests.Mock;

[assembly: AssemblyFixture(typeof(MockNntpServerFixture))]

namespace NzbDav.Usenet.Tests.Mock;

/// <summary>
/// The shared mock provider of this assembly, holding the files the connection tests read. Tests
/// that need auth, latency, faults or TLS start their own small instance instead of changing this one.
/// </summary>
public sealed class MockNntpServerFixture() : MockProviderFixture(new MockNntpOptions { Seed = 42 })
{
    /// <summary>Decoded bytes per article of <see cref="Large"/>.</summary>
    public const int SegmentSize = 700 * 1024;

    /// <summary>Generated: 10 full 700 KiB parts (more than the 8 distinct blocks) and a short last part.</summary>
    public MockFile Large { get; private set; } = null!;

    /// <summary>A one-byte file.</summary>
    public MockFile OneByte { get; private set; } = null!;

    /// <summary>Exactly one full yEnc line of data.</summary>
    public MockFile OneLine { get; private set; } = null!;

    /// <summary>Bytes that encode to '.', so every line is dot-stuffed and the last line is a lone '.' (the first holds 127 after its stuffed dot).</summary>
    public MockFile Dots { get; private set; } = null!;

    public override ValueTask InitializeAsync()
    {
        Large = Server.Store.AddGeneratedFile("large.bin", (10L * SegmentSize) + 12345, SegmentSize);
        OneByte = Server.Store.AddFile("one-byte.bin", [0x42], SegmentSize);
        OneLine = Server.Store.AddFile("one-line.bin", TestData.Random(128, seed: 7), SegmentSize);
        Dots = Server.Store.AddFile("dots.bin", Enumerable.Repeat((byte)('.' - 42), 128).ToArray(), SegmentSize);
        return base.InitializeAsync();
    }
}

using NzbDav.Archives;
using NzbDav.Archives.Release;

namespace NzbDav.Fuzz.Targets;

/// <summary>
/// The PAR2 reader. Input: one flag byte (bit 0: recompute packet MD5s, see <see cref="ChecksumFixer.FixPar2"/>),
/// then the PAR2 bytes. They are read three ways, from a span, a seekable stream and a forward-only
/// stream that hands out a few bytes per read; the first two must agree. Clean rejection: <see cref="ArchiveFormatException"/>.
/// </summary>
public sealed class Par2Target : FuzzTarget
{
    public override string Name => "par2";

    public override bool Run(byte[] input)
    {
        if (ChecksumFixer.Par2Input(input) is not { } data)
        {
            return false;
        }

        var fromSpan = Summarize(() => Par2Reader.Read(data));
        string? fromStream = null;
        string? fromForwardOnly = null;
        Sync.Run(async () =>
        {
            fromStream = await SummarizeAsync(() => Par2Reader.ReadAsync(new MemoryStream(data, writable: false), CancellationToken.None));
            fromForwardOnly = await SummarizeAsync(() => Par2Reader.ReadAsync(new TricklingStream(data, SplitPlan.SeedOf(data)), CancellationToken.None));
        });
        // The span and the seekable stream both know where the data ends, so they must agree exactly. A
        // forward-only stream cannot: a packet whose length runs past the end is read to the end (and
        // hides what follows) where the others see it cannot fit and resynchronise. It must only be clean.
        if (fromSpan != fromStream)
        {
            throw new FuzzFindingException($"PAR2 readers disagree:\n  span:     {fromSpan}\n  seekable: {fromStream}");
        }
        _ = fromForwardOnly;
        return !fromSpan.StartsWith("rejected", StringComparison.Ordinal);
    }

    private static string Summarize(Func<Par2ReadResult> read)
    {
        try
        {
            return Describe(read());
        }
        catch (ArchiveFormatException e)
        {
            return "rejected: " + e.Message;
        }
    }

    private static async Task<string> SummarizeAsync(Func<Task<Par2ReadResult>> read)
    {
        try
        {
            return Describe(await read());
        }
        catch (ArchiveFormatException e)
        {
            return "rejected: " + e.Message;
        }
    }

    private static string Describe(Par2ReadResult r) =>
        $"{r.Files.Count} files [{string.Join("; ", r.Files.Select(f => f.ToString()))}], {r.MainPackets.Count} main, creator '{r.Creator}', "
        + $"valid {r.ValidPackets}, skipped {r.SkippedPackets}, corrupt {r.CorruptPackets}";
}

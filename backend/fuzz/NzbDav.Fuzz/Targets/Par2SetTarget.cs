using NzbDav.Archives.Par2;

namespace NzbDav.Fuzz.Targets;

/// <summary>
/// The repair's PAR2 reader and the repair itself. Input: one flag byte (bit 0: recompute packet
/// MD5s, see <see cref="ChecksumFixer.FixPar2"/>), then PAR2 bytes read as one volume. The set is
/// read twice, in one piece and by a stream handing out a few bytes per read; both must give the
/// same set or the same refusal. A set small enough (slices ≤ 64 KiB, ≤ 64 slices, files ≤ 4 MiB)
/// is then repaired as if its first slice were lost, its files read as zeros: the repair must end
/// with rebuilt slices that match their checksums or a failure with a reason, never an exception.
/// </summary>
public sealed class Par2SetTarget : FuzzTarget
{
    public override string Name => "par2set";

    public override bool Run(byte[] input)
    {
        if (ChecksumFixer.Par2Input(input) is not { } data)
        {
            return false;
        }

        var accepted = false;
        Sync.Run(async () =>
        {
            var whole = new Par2SetReader();
            await whole.ReadAsync("fuzz.par2", new MemoryStream(data, writable: false), CancellationToken.None);
            var set = whole.Build(out var failure);
            var trickled = new Par2SetReader();
            await trickled.ReadAsync("fuzz.par2", new TricklingStream(data, SplitPlan.SeedOf(data)), CancellationToken.None);
            var again = trickled.Build(out var failureAgain);
            if (Describe(set, failure) != Describe(again, failureAgain))
            {
                throw new FuzzFindingException($"PAR2 set readers disagree:\n  whole:    {Describe(set, failure)}\n  trickled: {Describe(again, failureAgain)}");
            }

            if (set is null)
            {
                return;
            }

            accepted = true;
            CheckLayout(set);
            if (set.SliceSize <= 64 * 1024 && set.SliceCount is > 0 and <= 64 && set.Files.All(f => f.Description.Length <= 4 * 1024 * 1024) && set.RecoverySlices.Count > 0)
            {
                await RepairAsync(set, data);
            }
        });
        return accepted;
    }

    private static async Task RepairAsync(Par2RecoverySet set, byte[] data)
    {
        var request = new Par2RepairRequest(
            set,
            [0],
            (file, _) => Task.FromResult<Stream>(new MemoryStream(new byte[file.Description.Length], writable: false)),
            [new Par2Volume("fuzz.par2", _ => Task.FromResult<Stream>(new MemoryStream(data, writable: false)))]);
        using var outcome = await Par2Repair.RunAsync(request, CancellationToken.None);
        if (outcome.Succeeded)
        {
            var slice = Assert(outcome.Slices.Count == 1 ? outcome.Slices[0] : null, "a success rebuilds the one lost slice");
            var file = slice.File;
            var bytes = new byte[slice.Length];
            slice.Read(0, bytes);
            if (!Par2Repair.Matches(bytes, (int)set.SliceSize, file.Checksums[0]))
            {
                throw new FuzzFindingException("a rebuilt slice that does not match its checksums was handed back");
            }
        }
        else if (string.IsNullOrEmpty(outcome.Failure) || outcome.Slices.Count != 0)
        {
            throw new FuzzFindingException("a failed repair must say why and hand back nothing");
        }
    }

    private static void CheckLayout(Par2RecoverySet set)
    {
        var expected = set.Files.Sum(f => f.SliceCount);
        if (expected != set.SliceCount)
        {
            throw new FuzzFindingException($"{set.SliceCount} slices, the files hold {expected}");
        }

        for (var i = 0; i < Math.Min(set.SliceCount, 256); i++)
        {
            var (file, offset, length) = set.Locate(i);
            if (offset < 0 || length <= 0 || offset + length > file.Description.Length || length > set.SliceSize)
            {
                throw new FuzzFindingException($"slice {i} lies at {offset} for {length} bytes in a file of {file.Description.Length}");
            }
        }
    }

    private static T Assert<T>(T? value, string what) where T : class => value ?? throw new FuzzFindingException(what);

    private static string Describe(Par2RecoverySet? set, string? failure) =>
        set is null
            ? "refused: " + failure
            : $"set {set.Id}, slice {set.SliceSize}, {set.Files.Count} files, {set.SliceCount} slices, recovery [{string.Join(",", set.RecoverySlices.Select(r => r.Exponent))}]";
}

using System.Security.Cryptography;
using NzbDav.Archives.Par2;
using NzbDav.Archives.Tests.Release;

namespace NzbDav.Archives.Tests.Par2;

/// <summary>
/// Repairs against Debian's par2 (par2cmdline) as the oracle: it makes the recovery data, our code
/// rebuilds lost slices from it, and the repaired files must be byte-identical to the originals and
/// pass <c>par2 verify</c>.
/// </summary>
public sealed class Par2RepairTests(Par2ToolFixture tool) : IClassFixture<Par2ToolFixture>, IDisposable
{
    private const int SliceSize = 64 * 1024;
    private readonly string _directory = Directory.CreateTempSubdirectory("nzbdav-par2-repair-").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public async Task Scattered_lost_slices_of_one_file_are_rebuilt_byte_exact_and_par2_verifies_them()
    {
        var original = MakeFile("movie.mkv", (3 * 1024 * 1024) + 1234, seed: 1);
        Create("movie.par2", 10, 3, "movie.mkv");
        var set = await ReadSetAsync();
        Assert.Equal(49, set.SliceCount);
        Assert.True(set.RecoverySlices.Count >= 4);

        var outcome = await RepairAsync(set, [3, 17, 48]);

        Assert.True(outcome.Succeeded, outcome.Failure);
        Assert.Equal(3, outcome.Slices.Count);
        AssertRepairedFilesMatch(outcome, ("movie.mkv", original));
        Assert.Equal(0, tool.Invoke(_directory, "verify", "-q", "movie.par2").Exit);
    }

    [Fact]
    public async Task A_run_of_lost_slices_across_files_of_a_multi_file_set_is_rebuilt()
    {
        var first = MakeFile("show.part1.rar", 1_000_000, seed: 2);
        var second = MakeFile("show.part2.rar", 1_000_000, seed: 3);
        var third = MakeFile("show.part3.rar", 333_333, seed: 4);
        Create("show.par2", 15, 2, "show.part1.rar", "show.part2.rar", "show.part3.rar");
        var set = await ReadSetAsync();
        var part2 = set.FindFile("show.part2.rar")!;
        var part3 = set.FindFile("show.part3.rar")!;

        // A run of four in part 2 (an outage over consecutive articles) and the short last slice of part 3.
        int[] lost = [.. Enumerable.Range(part2.FirstSlice + 5, 4), part3.FirstSlice + part3.SliceCount - 1];
        var outcome = await RepairAsync(set, lost);

        Assert.True(outcome.Succeeded, outcome.Failure);
        AssertRepairedFilesMatch(outcome, ("show.part1.rar", first), ("show.part2.rar", second), ("show.part3.rar", third));
        Assert.Equal(0, tool.Invoke(_directory, "verify", "-q", "show.par2").Exit);
        // Only the surviving slices were read, each once, and about as many recovery slices as needed.
        Assert.Equal(first.Length + second.Length + third.Length - LostBytes(set, lost), outcome.InputBytesRead);
    }

    [Theory]
    [InlineData(SliceSize * 2)] // stripes of a third of a slice (5 accumulators and 2 buffers): three passes
    [InlineData(7 * 64)] // the smallest budget: stripes of one 64-byte line, 1,024 passes
    public async Task Over_the_memory_budget_the_slices_are_stored_and_the_rebuild_in_stripes_is_byte_exact(long budget)
    {
        var first = MakeFile("show.part1.rar", 1_000_000, seed: 5);
        var second = MakeFile("show.part2.rar", 777_777, seed: 6);
        Create("show.par2", 15, 2, "show.part1.rar", "show.part2.rar");
        var set = await ReadSetAsync();
        var part2 = set.FindFile("show.part2.rar")!;
        // Scattered over both files, the short last slice among them: 5 accumulators of 64 KiB would pass the budget.
        int[] lost = [1, 9, part2.FirstSlice + 2, part2.FirstSlice + part2.SliceCount - 1];

        var outcome = await RepairAsync(set, lost, memoryBudget: budget);

        Assert.True(outcome.Succeeded, outcome.Failure);
        Assert.True(outcome.Spilled);
        AssertRepairedFilesMatch(outcome, ("show.part1.rar", first), ("show.part2.rar", second));
        Assert.Equal(0, tool.Invoke(_directory, "verify", "-q", "show.par2").Exit);
        Assert.Empty(Directory.GetFiles(Path.Combine(_directory, "scratch")));
    }

    [Fact]
    public async Task A_lost_recovery_volume_is_made_up_by_the_others()
    {
        var original = MakeFile("film.mkv", 2_000_000, seed: 5);
        Create("film.par2", 20, 4, "film.mkv");
        var volumes = Directory.GetFiles(_directory, "film.vol*.par2").Order(StringComparer.Ordinal).ToArray();
        File.Delete(volumes[0]);
        var set = await ReadSetAsync();

        var outcome = await RepairAsync(set, [0, 1, 2]);

        Assert.True(outcome.Succeeded, outcome.Failure);
        AssertRepairedFilesMatch(outcome, ("film.mkv", original));
    }

    [Fact]
    public async Task Too_little_recovery_data_fails_naming_what_is_needed_and_what_there_is()
    {
        MakeFile("small.mkv", 1_000_000, seed: 6);
        Create("small.par2", 5, 1, "small.mkv");
        var set = await ReadSetAsync();
        var have = set.RecoverySlices.Count;

        var outcome = await RepairAsync(set, Enumerable.Range(0, have + 2).ToArray());

        Assert.False(outcome.Succeeded);
        Assert.Equal("not enough recovery data: need " + (have + 2) + ", have " + have, outcome.Failure);
        Assert.Empty(outcome.Slices);
    }

    [Fact]
    public async Task A_slice_damaged_beyond_the_known_holes_is_reported_not_used()
    {
        var original = MakeFile("damaged.mkv", 1_500_000, seed: 7);
        Create("damaged.par2", 10, 1, "damaged.mkv");
        var set = await ReadSetAsync();

        var outcome = await RepairAsync(set, [2], corrupt: [9]);

        Assert.False(outcome.Succeeded);
        Assert.Equal([9], outcome.Damaged);
        Assert.Contains("do not match their checksums", outcome.Failure);

        // Told of it, the repair rebuilds both.
        outcome = await RepairAsync(set, [2, 9], corrupt: [9]);
        Assert.True(outcome.Succeeded, outcome.Failure);
        AssertRepairedFilesMatch(outcome, ("damaged.mkv", original));
    }

    [Fact]
    public async Task Damaged_recovery_packets_are_passed_over_and_others_used()
    {
        var original = MakeFile("flip.mkv", 1_500_000, seed: 8);
        Create("flip.par2", 20, 1, "flip.mkv");
        var volume = Directory.GetFiles(_directory, "flip.vol*.par2").Single();
        var bytes = File.ReadAllBytes(volume);
        // Flip a byte inside the first recovery slice's data: its packet MD5 no longer matches.
        var first = bytes.AsSpan().IndexOf("PAR 2.0\0RecvSlic"u8);
        bytes[first + 16 + 4 + 100] ^= 0xFF;
        File.WriteAllBytes(volume, bytes);
        var reader = new Par2SetReader();
        await using (var stream = File.OpenRead(volume))
        {
            await reader.ReadAsync(Path.GetFileName(volume), stream, TestContext.Current.CancellationToken);
        }

        Assert.Equal(1, reader.CorruptPackets);
        var set = await ReadSetAsync();
        var outcome = await RepairAsync(set, [1, 5]);

        Assert.True(outcome.Succeeded, outcome.Failure);
        AssertRepairedFilesMatch(outcome, ("flip.mkv", original));
    }

    [Fact]
    public async Task A_set_without_its_main_packet_or_checksums_is_refused_with_a_reason()
    {
        var reader = new Par2SetReader();
        await reader.ReadAsync("empty.par2", new MemoryStream([1, 2, 3]), TestContext.Current.CancellationToken);
        Assert.Null(reader.Build(out var failure));
        Assert.Equal("no PAR2 packets were found", failure);

        MakeFile("a.mkv", 200_000, seed: 9);
        Create("a.par2", 10, 1, "a.mkv");
        // Only the volume's packets with their IFSC packets cut out: a set whose checksums are missing.
        var volume = File.ReadAllBytes(Directory.GetFiles(_directory, "a.vol*.par2").Single());
        var kept = new MemoryStream();
        for (var at = 0; at < volume.Length;)
        {
            var length = (int)BitConverter.ToUInt64(volume, at + 8);
            if (!volume.AsSpan(at + 48, 16).SequenceEqual("PAR 2.0\0IFSC\0\0\0\0"u8))
            {
                kept.Write(volume, at, length);
            }

            at += length;
        }

        reader = new Par2SetReader();
        kept.Position = 0;
        await reader.ReadAsync("a.vol.par2", kept, TestContext.Current.CancellationToken);
        Assert.Null(reader.Build(out failure));
        Assert.Equal("the slice checksums of a.mkv are missing from the recovery set", failure);
    }

    private byte[] MakeFile(string name, int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        File.WriteAllBytes(Path.Combine(_directory, name), bytes);
        return bytes;
    }

    private void Create(string index, int percent, int volumes, params string[] files)
    {
        var (exit, output) = tool.Invoke(_directory, ["create", "-q", "-q", "-s" + SliceSize, "-r" + percent, "-n" + volumes, index, .. files]);
        Assert.True(exit == 0, output);
    }

    private async Task<Par2RecoverySet> ReadSetAsync()
    {
        var reader = new Par2SetReader();
        foreach (var path in Directory.GetFiles(_directory, "*.par2").Order(StringComparer.Ordinal))
        {
            await using var stream = File.OpenRead(path);
            await reader.ReadAsync(Path.GetFileName(path), stream, TestContext.Current.CancellationToken);
        }

        var set = reader.Build(out var failure);
        Assert.True(set is not null, failure);
        return set;
    }

    // The files as a reader of the release sees them: zeros where slices were lost, flipped bytes where
    // they are damaged unknowingly; the repaired slices are then written into them.
    private async Task<Par2RepairOutcome> RepairAsync(Par2RecoverySet set, int[] lost, int[]? corrupt = null, long memoryBudget = long.MaxValue)
    {
        var damaged = new Dictionary<string, byte[]>();
        foreach (var file in set.Files)
        {
            damaged[file.Description.Name] = File.ReadAllBytes(Path.Combine(_directory, file.Description.Name));
        }

        foreach (var index in lost)
        {
            var (file, offset, length) = set.Locate(index);
            damaged[file.Description.Name].AsSpan((int)offset, length).Clear();
        }

        foreach (var index in corrupt ?? [])
        {
            var (file, offset, _) = set.Locate(index);
            damaged[file.Description.Name][(int)offset + 7] ^= 0x5A;
        }

        var volumes = Directory.GetFiles(_directory, "*.vol*.par2").Order(StringComparer.Ordinal)
            .Select(path => new Par2Volume(Path.GetFileName(path), _ => Task.FromResult<Stream>(File.OpenRead(path))))
            .ToList();
        var request = new Par2RepairRequest(
            set,
            lost,
            (file, _) => Task.FromResult<Stream>(new MemoryStream(damaged[file.Description.Name], writable: false)),
            volumes,
            MemoryBudget: memoryBudget,
            ScratchDirectory: Path.Combine(_directory, "scratch"));
        using var outcome = await Par2Repair.RunAsync(request, TestContext.Current.CancellationToken);
        foreach (var slice in outcome.Slices)
        {
            slice.Read(0, damaged[slice.File.Description.Name].AsSpan((int)slice.Offset, slice.Length));
        }

        foreach (var (name, bytes) in damaged)
        {
            File.WriteAllBytes(Path.Combine(_directory, name), bytes);
        }

        return outcome;
    }

    private void AssertRepairedFilesMatch(Par2RepairOutcome outcome, params (string Name, byte[] Original)[] files)
    {
        Assert.True(outcome.Succeeded);
        foreach (var (name, original) in files)
        {
            Assert.Equal(SHA256.HashData(original), SHA256.HashData(File.ReadAllBytes(Path.Combine(_directory, name))));
        }
    }

    private static long LostBytes(Par2RecoverySet set, int[] lost) => lost.Sum(index => (long)set.Locate(index).Length);
}

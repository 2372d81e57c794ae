using NzbDav.Archives.Entries;

namespace NzbDav.Archives.Tests.Entries;

/// <summary>Damaged archives must fail with <see cref="ArchiveFormatException"/>, never another exception type.</summary>
public sealed class CorruptionSweepTests
{
    public static TheoryData<string> Archives => ["Rar.none.rar", "Rar5.none.rar", "7Zip.Copy.7z", "Rar5.rar"];

    [Theory]
    [MemberData(nameof(Archives))]
    public async Task Truncation_anywhere_gives_a_format_error_or_a_listing(string name)
    {
        var bytes = File.ReadAllBytes(TestData.Archive(name));
        for (var length = 0; length < bytes.Length; length += length < 300 ? 1 : 397)
        {
            await AssertFailsCleanlyAsync(bytes[..length], $"{name} cut at {length}");
        }
    }

    [Theory]
    [MemberData(nameof(Archives))]
    public async Task Random_byte_damage_gives_a_format_error_or_a_listing(string name)
    {
        var original = File.ReadAllBytes(TestData.Archive(name));
        var random = new Random(name.Length);
        for (var i = 0; i < 300; i++)
        {
            var bytes = (byte[])original.Clone();
            var position = i % 2 == 0 ? random.Next(Math.Min(400, bytes.Length)) : bytes.Length - 1 - random.Next(200);
            bytes[position] = (byte)random.Next(256);
            await AssertFailsCleanlyAsync(bytes, $"{name} byte {position} = {bytes[position]}");
        }
    }

    private static async Task AssertFailsCleanlyAsync(byte[] bytes, string what)
    {
        using var set = VolumeSet.FromBytes(bytes);
        try
        {
            await new ArchiveReader().ReadAsync(set.Streams, null, TestContext.Current.CancellationToken);
        }
        catch (ArchiveFormatException)
        {
        }
        catch (Exception e)
        {
            Assert.Fail($"{what}: {e.GetType().Name}: {e.Message}");
        }
    }
}

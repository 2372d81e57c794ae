using System.Text.Json;
using NzbDav.Server.Tests.RealClients;
using NzbDav.Testing;
using NzbDav.Tools.Testing.Crash;

namespace NzbDav.Server.Tests.Crash;

/// <summary>
/// <c>--test-crash</c> at a short size over real processes and sockets: the real <c>NzbDav.dll</c>
/// killed with SIGKILL at random moments while clients add, edit settings and delete, then started
/// again and checked (the full 20 cycles are the documented command, docs/reliability.md).
/// </summary>
public sealed class CrashCommandTests
{
    [Fact]
    [SlowTest("kill -9 cycles of the real server process")]
    public async Task Four_kills_during_start_ingestion_settings_saves_and_deletions_lose_and_duplicate_nothing()
    {
        // Seed 2 draws one kill during a start and three during the clients' work, each late enough
        // for NZBs to be accepted first even on a loaded machine.
        var json = await RunPassingAsync("--cycles=3", "--seed=2", "--min-work-ms=1200", "--work-ms=2000");

        Assert.Equal(3, json.GetProperty("cycles").GetInt32());
        Assert.True(json.GetProperty("killedDuringWork").GetInt32() >= 1);
        Assert.True(json.GetProperty("accepted").GetInt32() > 0, "the clients should have had NZBs accepted before the kills");
        Assert.True(json.GetProperty("settingsSaved").GetInt32() > 0);
        Assert.True(json.GetProperty("completed").GetInt32() > 0);
    }

    [Fact]
    [SlowTest("kill -9 cycles of the real server process with rclone mounts")]
    public async Task With_the_managed_mount_each_kill_leaves_an_rclone_that_the_next_start_stops_and_mounts_again()
    {
        if (RcloneMount.Unusable(out _) is { } reason)
            Assert.Skip("FUSE is not usable here: " + reason);
        var json = await RunPassingAsync("--cycles=3", "--seed=4", "--min-work-ms=1200", "--work-ms=2000", "--mount");

        Assert.True(json.GetProperty("mount").GetBoolean());
        Assert.True(json.GetProperty("orphanedRclones").GetInt32() >= 1, "a kill after the mount came up leaves its rclone behind");
        Assert.Equal(0, json.GetProperty("mountFailures").GetInt32());
    }

    [Theory]
    [InlineData("--cycles=0", "--cycles must be a whole number from 1 to 10000; got '0'.")]
    [InlineData("--mount=yes", "--mount takes no value (got 'yes').")]
    [InlineData("--work-ms=10", "--work-ms must be a whole number from 200 to 600000; got '10'.")]
    [InlineData("--kill", "Unknown argument '--kill'.")]
    [InlineData("--min-work-ms=3000 --work-ms=2000", "--min-work-ms (3000) cannot exceed --work-ms (2000).")]
    public async Task Bad_arguments_exit_2_with_the_reason_and_the_usage(string argument, string reason)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var exitCode = await CrashCommand.RunAsync(argument.Split(' '), output, error, TestContext.Current.CancellationToken);

        Assert.Equal(2, exitCode);
        Assert.Contains(reason, error.ToString(), StringComparison.Ordinal);
        Assert.Contains("Usage:", error.ToString(), StringComparison.Ordinal);
    }

    private static async Task<JsonElement> RunPassingAsync(params string[] args)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var exitCode = await CrashCommand.RunAsync([.. args, "--json", "--server=" + Path.Combine(AppContext.BaseDirectory, "NzbDav.dll")], output, error, TestContext.Current.CancellationToken);
        TestContext.Current.TestOutputHelper?.WriteLine(output.ToString());
        Assert.True(exitCode == 0, output + Environment.NewLine + error);
        using var document = JsonDocument.Parse(output.ToString().TrimEnd().Split('\n')[^1]);
        var json = document.RootElement.Clone();
        Assert.True(json.GetProperty("passed").GetBoolean());
        foreach (var zero in new[] { "lost", "duplicated", "resurrected", "failed", "settingsTorn", "integrityFailures", "startFailures", "mountFailures" })
            Assert.Equal(0, json.GetProperty(zero).GetInt32());
        return json;
    }
}

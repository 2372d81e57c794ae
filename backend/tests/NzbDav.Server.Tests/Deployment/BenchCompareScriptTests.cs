using System.Runtime.Versioning;
using System.Text;
using System.Text.Json;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.RealClients;

namespace NzbDav.Server.Tests.Deployment;

/// <summary>
/// tools/bench-compare.sh, the A/B harness every read-path change states its ratio with
/// (docs/benchmarks.md, "Comparing two builds"). Most tests run it on a throwaway repository of two
/// commits whose tools/publish.sh writes a stand-in NzbDav.dll, with a stand-in dotnet host printing
/// the benchmark's JSON: the argument checks, the ABBA order, the ratios, the cache and every failure
/// are exercised in seconds. One test runs the real benchmark: the server this suite built, compared
/// with itself as a publish folder (the real publish is <see cref="PublishScriptTests"/>'s to test).
/// </summary>
[SupportedOSPlatform("linux")]
public sealed class BenchCompareScriptTests
{
    private static readonly string Script = Repository.PathOf("tools", "bench-compare.sh");

    // Below the suite's hang timeout (5 minutes per test), so a stuck publish fails with its output.
    private static readonly TimeSpan PublishDeadline = TimeSpan.FromMinutes(4.5);
    private static readonly TimeSpan FakeDeadline = TimeSpan.FromMinutes(1);

    [Fact]
    public async Task Help_documents_the_usage_and_exits_0()
    {
        using var fake = await FakeRepository.CreateAsync();
        var result = await fake.RunAsync("--help");
        Assert.Equal(0, result.ExitCode);
        foreach (var text in new[] { "REF [OTHER]", "--pairs N", "--bench", "b1", "webdav", "serve-cpu", "streams", "WORKTREE", "--json", "ABBA", "NZBDAV_BENCH_CACHE", "NZBDAV_BENCH_LOCK", "90 % bootstrap" })
            Assert.Contains(text, result.Stdout, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_unknown_commit_stops_before_publishing()
    {
        using var fake = await FakeRepository.CreateAsync();
        var result = await fake.RunAsync("no-such-commit", "--pairs", "1");
        Assert.NotEqual(0, result.ExitCode);
        Assert.Contains("unknown commit 'no-such-commit'", result.Stderr, StringComparison.Ordinal);
        Assert.Empty(fake.Publishes());

        result = await fake.RunAsync("HEAD", "no-such-other", "--pairs", "1");
        Assert.NotEqual(0, result.ExitCode);
        Assert.Contains("unknown commit 'no-such-other'", result.Stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_unknown_benchmark_is_refused()
    {
        using var fake = await FakeRepository.CreateAsync();
        var result = await fake.RunAsync("HEAD", "--bench", "b2");
        Assert.Equal(2, result.ExitCode);
        Assert.Contains("unknown benchmark 'b2'", result.Stderr, StringComparison.Ordinal);
        Assert.Empty(fake.Publishes());
    }

    [Theory]
    [InlineData("0")]
    [InlineData("-3")]
    [InlineData("x")]
    [InlineData("1.5")]
    [InlineData("")]
    public async Task Pairs_must_be_a_positive_whole_number(string pairs)
    {
        using var fake = await FakeRepository.CreateAsync();
        var result = await fake.RunAsync("HEAD", "--pairs=" + pairs);
        Assert.Equal(2, result.ExitCode);
        Assert.Contains("--pairs must be a positive whole number", result.Stderr, StringComparison.Ordinal);
        Assert.Empty(fake.Publishes());
    }

    [Theory]
    [InlineData(new string[0], "REF is missing")]
    [InlineData(new[] { "HEAD", "--frobnicate" }, "unknown option '--frobnicate'")]
    [InlineData(new[] { "WORKTREE", "HEAD" }, "WORKTREE can only be OTHER")]
    [InlineData(new[] { "HEAD", "HEAD", "HEAD" }, "at most two commits")]
    public async Task Other_bad_arguments_are_refused(string[] arguments, string message)
    {
        using var fake = await FakeRepository.CreateAsync();
        var result = await fake.RunAsync(arguments);
        Assert.Equal(2, result.ExitCode);
        Assert.Contains(message, result.Stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Outside_a_git_repository_it_says_so()
    {
        using var directory = new TempDirectory();
        var result = await RunAsync(directory.Path, ["HEAD~1", "HEAD", "--pairs", "1"], new Dictionary<string, string?>
        {
            // No repository above the temporary folder either.
            ["GIT_CEILING_DIRECTORIES"] = Path.GetDirectoryName(directory.Path),
            ["NZBDAV_BENCH_LOCK"] = "",
            ["NZBDAV_BENCH_CACHE"] = Path.Combine(directory.Path, "cache"),
        }, FakeDeadline);
        Assert.Equal(1, result.ExitCode);
        Assert.Contains("not inside a git repository", result.Stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Pairs_alternate_abba_and_the_ratio_is_the_median_of_b_over_a()
    {
        using var fake = await FakeRepository.CreateAsync();
        var result = await fake.RunAsync("HEAD~1", "HEAD", "--pairs", "3", "--json", "--", "--size=8");
        Assert.True(result.ExitCode == 0, result.Text);

        // A prints 100 MB/s, B 110: every pair's ratio is 1.1, and so is the whole interval.
        Assert.Equal(new[] { "100", "110", "110", "100", "100", "110" }, fake.Runs().Select(r => r.Marker));
        Assert.All(fake.Runs(), run => Assert.Equal(
            "--test-full-nzb --mock-server --latency=50 --jitter=10 --connections=20 --size=8 --json --Serilog:MinimumLevel:Default=Warning", run.Arguments));
        var lines = result.Stdout.Split('\n');
        Assert.Contains(lines, l => l.StartsWith("A  " + fake.ShortA + "  side A", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("B  " + fake.ShortB + "  side B", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("sequentialMBps", StringComparison.Ordinal) && l.Contains("median 110.0", StringComparison.Ordinal) && l.Contains("range 110.0–110.0", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("seekMeanMs", StringComparison.Ordinal) && l.Contains("median 25.00", StringComparison.Ordinal));
        Assert.Contains("B/A per pair: 1.100 1.100 1.100", result.Stdout, StringComparison.Ordinal);
        Assert.Contains(lines, l => l == "b1 sequentialMBps: B/A median 1.100 (90% CI 1.100–1.100), 3 pairs; A 100 MB/s (100–100), B 110 MB/s (110–110)");

        using var json = JsonDocument.Parse(lines.Last(l => l.Length > 0));
        var root = json.RootElement;
        Assert.Equal("b1", root.GetProperty("bench").GetString());
        Assert.Equal("higher", root.GetProperty("better").GetString());
        Assert.Equal(fake.ShaA, root.GetProperty("A").GetProperty("commit").GetString());
        Assert.Equal(fake.ShaB, root.GetProperty("B").GetProperty("commit").GetString());
        Assert.Equal(1.1, root.GetProperty("ratio").GetProperty("median").GetDouble(), 6);
        Assert.Equal(new[] { 1.1, 1.1 }, root.GetProperty("ratio").GetProperty("ci90").EnumerateArray().Select(v => Math.Round(v.GetDouble(), 6)));
        var runs = root.GetProperty("runs").EnumerateArray().ToList();
        Assert.Equal(new[] { "A", "B", "B", "A", "A", "B" }, runs.Select(r => r.GetProperty("side").GetString()));
        Assert.Equal(129.4, runs[0].GetProperty("peakRssMB").GetDouble());
        Assert.Equal(25, runs[0].GetProperty("seekMeanMs").GetDouble());

        // One publish per commit, in temporary worktrees that are gone afterwards; the second comparison reuses both.
        Assert.Equal(2, fake.Publishes().Length);
        Assert.Single(await fake.WorktreesAsync());
        result = await fake.RunAsync("HEAD~1", "HEAD", "--pairs", "1");
        Assert.True(result.ExitCode == 0, result.Text);
        Assert.Equal(2, fake.Publishes().Length);
        Assert.Contains("A (" + fake.ShortA + "): using the publish cached", result.Stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_same_commit_twice_is_published_once_and_the_bootstrap_is_reproducible()
    {
        using var fake = await FakeRepository.CreateAsync(varying: true);
        var first = await fake.RunAsync("HEAD", "HEAD", "--pairs", "12");
        Assert.True(first.ExitCode == 0, first.Text);
        Assert.Single(fake.Publishes());
        Assert.Equal(24, fake.Runs().Count);
        var summary = first.Stdout.Split('\n').Single(l => l.StartsWith("b1 sequentialMBps: B/A median ", StringComparison.Ordinal));
        Assert.Contains(", 12 pairs; A ", summary, StringComparison.Ordinal);

        // The same measurements give the same interval: the stand-in repeats its values in the same order.
        fake.ResetRuns();
        var second = await fake.RunAsync("HEAD", "HEAD", "--pairs", "12");
        Assert.True(second.ExitCode == 0, second.Text);
        Assert.Equal(summary, second.Stdout.Split('\n').Single(l => l.StartsWith("b1 sequentialMBps: ", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task Serve_cpu_reports_cpu_per_gb_and_says_lower_is_better()
    {
        using var fake = await FakeRepository.CreateAsync();
        var result = await fake.RunAsync("HEAD~1", "HEAD", "--bench", "serve-cpu", "--pairs", "2", "--", "--size=4");
        Assert.True(result.ExitCode == 0, result.Text);
        Assert.All(fake.Runs(), run => Assert.Equal("--test-serve-cpu --gets=3 --size=4 --json --Serilog:MinimumLevel:Default=Warning", run.Arguments));
        Assert.Contains("LOWER is better: a ratio below 1 means B is better", result.Stdout, StringComparison.Ordinal);
        Assert.Contains("serve-cpu cpuSecondsPerGb (lower is better): B/A median 1.100 (90% CI 1.100–1.100), 2 pairs; A 1.00 CPU s/GB (1.00–1.00), B 1.10 CPU s/GB (1.10–1.10)",
            result.Stdout, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Streams_compares_the_players_held_and_reports_the_held_steps_figures()
    {
        using var fake = await FakeRepository.CreateAsync();
        var result = await fake.RunAsync("HEAD~1", "HEAD", "--bench", "streams", "--pairs", "2", "--", "--held-seconds=5");
        Assert.True(result.ExitCode == 0, result.Text);
        Assert.All(fake.Runs(), run => Assert.Equal(
            "--test-webdav --mock-server --streams-held=7 --held-start=30 --held-step=5 --held-max=120 --latency=50 --jitter=10 --connections=20 --held-seconds=5 --json --Serilog:MinimumLevel:Default=Warning",
            run.Arguments));
        Assert.True(result.Stdout.Contains("streams held: B/A median 1.100 (90% CI 1.100–1.100), 2 pairs; A 50.0 streams (50.0–50.0), B 55.0 streams (55.0–55.0)", StringComparison.Ordinal), result.Stdout);
        Assert.Contains("atHeld.serverPeakRssMB", result.Stdout, StringComparison.Ordinal);
        Assert.Contains("250.5", result.Stdout, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_commit_that_does_not_publish_stops_with_its_last_lines_and_is_not_cached()
    {
        using var fake = await FakeRepository.CreateAsync();
        var result = await fake.RunAsync(new Dictionary<string, string?> { ["FAKE_PUBLISH_FAIL"] = "1" }, "HEAD~1", "HEAD", "--pairs", "1");
        Assert.Equal(1, result.ExitCode);
        Assert.Contains("the publish of A (" + fake.ShortA + ") failed", result.Stderr, StringComparison.Ordinal);
        Assert.Contains("error CS1002: ; expected", result.Stderr, StringComparison.Ordinal);
        Assert.DoesNotContain("B/A", result.Stdout, StringComparison.Ordinal);
        Assert.Empty(fake.Runs());
        Assert.Single(await fake.WorktreesAsync());

        // The failed publish left no marker: the next comparison publishes again instead of reusing it.
        result = await fake.RunAsync("HEAD~1", "HEAD", "--pairs", "1");
        Assert.True(result.ExitCode == 0, result.Text);
        Assert.DoesNotContain("A (" + fake.ShortA + "): using the publish cached", result.Stderr, StringComparison.Ordinal);
        Assert.Equal(2, fake.Publishes().Length);
    }

    [Theory]
    [InlineData("exit", "exited with code 3", "stand-in failure on stderr")]
    [InlineData("verification", "failed its verification", "\"passed\":false")]
    [InlineData("no-json", "printed no JSON", "stand-in finished without a report")]
    public async Task A_failed_run_stops_the_comparison_naming_the_side_and_run(string mode, string reason, string lastLine)
    {
        using var fake = await FakeRepository.CreateAsync();
        // The third run (pair 2, B first) fails: the first two passed, and still no ratio is printed.
        var result = await fake.RunAsync(new Dictionary<string, string?> { ["FAKE_FAIL_MODE"] = mode, ["FAKE_FAIL_RUN"] = "3" }, "HEAD~1", "HEAD", "--pairs", "2");
        Assert.Equal(1, result.ExitCode);
        Assert.Contains($"side B ({fake.ShortB}), run 3 of 4 (pair 2, BA)", result.Stderr, StringComparison.Ordinal);
        Assert.Contains(reason, result.Stderr, StringComparison.Ordinal);
        Assert.Contains(lastLine, result.Stderr, StringComparison.Ordinal);
        Assert.DoesNotContain("B/A", result.Stdout, StringComparison.Ordinal);
        Assert.Equal(3, fake.Runs().Count);
    }

    [Fact]
    public async Task The_suites_own_build_against_itself_runs_the_real_benchmark_and_measures_a_ratio_near_1()
    {
        // The server build beside this test assembly's (bin/<Configuration>/net10.0), as a folder holding a publish.
        var configuration = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar)).Parent!.Name;
        var build = Repository.PathOf("backend", "src", "NzbDav", "bin", configuration, "net10.0");
        Assert.True(File.Exists(Path.Combine(build, "NzbDav.dll")), "the suite's build of the server is not at " + build);

        var environment = new Dictionary<string, string?> { ["NZBDAV_BENCH_LOCK"] = "" }; // the suite holds the machine's build lock
        if (Path.GetDirectoryName(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH")) is { Length: > 0 } dotnet)
            environment["PATH"] = dotnet + ":" + Environment.GetEnvironmentVariable("PATH");

        var result = await RunAsync(Repository.Root, [build, build, "--pairs", "1", "--json", "--", "--size=4"], environment, PublishDeadline);
        TestContext.Current.TestOutputHelper?.WriteLine(result.Text);
        Assert.True(result.ExitCode == 0, $"tools/bench-compare.sh exited with {result.ExitCode}:\n{result.Text}");

        var lines = result.Stdout.Split('\n');
        using var json = JsonDocument.Parse(lines.Last(l => l.Length > 0));
        var root = json.RootElement;
        Assert.Contains(lines, l => l.StartsWith("A  publish  the publish in " + build, StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("B  publish  the publish in " + build, StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("B/A per pair: ", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("b1 sequentialMBps: B/A median ", StringComparison.Ordinal) && l.Contains(", 1 pair; A ", StringComparison.Ordinal));
        Assert.Contains("using the publish in " + build + " as it is", result.Stderr, StringComparison.Ordinal);
        Assert.DoesNotContain("publishing", result.Stderr, StringComparison.Ordinal);

        // One pair of 4 MiB runs of the same build: noisy, but nowhere near a factor of 2, and every byte verified.
        var ratio = root.GetProperty("ratio").GetProperty("median").GetDouble();
        Assert.InRange(ratio, 0.5, 2.0);
        Assert.All(root.GetProperty("runs").EnumerateArray(), run => Assert.True(run.GetProperty("sequentialMBps").GetDouble() > 0));

        // A folder without a publish is refused before anything runs.
        using var empty = new TempDirectory();
        var refused = await RunAsync(Repository.Root, [empty.Path, build, "--pairs", "1"], environment, FakeDeadline);
        Assert.NotEqual(0, refused.ExitCode);
        Assert.Contains("holds no publish (no NzbDav.dll in it)", refused.Stderr, StringComparison.Ordinal);
    }

    private static async Task<ScriptResult> RunAsync(string directory, IReadOnlyList<string> arguments, Dictionary<string, string?> environment, TimeSpan deadline)
    {
        var result = await ExternalTool.RunAsync("bash", [Script, .. arguments], new ToolRun(deadline, "apt-get install -y bash git", environment, directory), TestContext.Current.CancellationToken);
        return new ScriptResult(result.ExitCode, Encoding.UTF8.GetString(result.Output), result.Errors);
    }

    private sealed record ScriptResult(int ExitCode, string Stdout, string Stderr)
    {
        public string Text => $"stdout:\n{Stdout}\nstderr:\n{Stderr}";
    }

    private sealed record FakeRun(string Marker, string Arguments);

    /// <summary>
    /// A git repository of two commits ("side A: 100", "side B: 110") whose tools/publish.sh copies the
    /// commit's marker file to &lt;output&gt;/NzbDav.dll and logs each publish, and a stand-in dotnet host
    /// that logs each run and prints the benchmark's JSON with the marker as the metric (b1's MB/s, or
    /// serve-cpu's CPU-seconds per GB ÷ 100, streams' held players ÷ 2). FAKE_PUBLISH_FAIL fails the publish; FAKE_FAIL_MODE makes
    /// run FAKE_FAIL_RUN exit 3, fail its verification or print no JSON.
    /// </summary>
    private sealed class FakeRepository : IDisposable
    {
        private const string PublishScript = """
            #!/usr/bin/env bash
            set -e
            if [ -n "${FAKE_PUBLISH_FAIL:-}" ]; then
              echo "Restore complete"
              echo "Program.cs(1,2): error CS1002: ; expected"
              exit 1
            fi
            echo "$(cat marker)" >> "$FAKE_STATE/publishes"
            mkdir -p "$2"
            cp marker "$2/NzbDav.dll"
            """;

        // $1 is the published NzbDav.dll (the marker), the rest the benchmark's arguments.
        private const string DotnetHost = """
            #!/usr/bin/env bash
            marker=$(cat "$1"); shift
            echo "$marker|$*" >> "$FAKE_STATE/runs"
            run=$(wc -l < "$FAKE_STATE/runs")
            value=$marker
            if [ -n "${FAKE_VARYING:-}" ]; then value=$((marker + (run * 7) % 13)); fi
            echo "progress line of run $run"
            if [ "$run" = "${FAKE_FAIL_RUN:-}" ]; then
              case "$FAKE_FAIL_MODE" in
                exit) echo "stand-in failure on stderr" >&2; exit 3 ;;
                verification) echo "{\"sequentialMBps\":$value,\"verification\":{\"enabled\":true,\"passed\":false,\"mismatchedReads\":1},\"passed\":false}"; exit 0 ;;
                no-json) echo "stand-in finished without a report"; exit 0 ;;
              esac
            fi
            cpu=$(awk -v v="$value" 'BEGIN { printf "%.2f", v / 100 }')
            held=$((value / 2))
            echo "{\"source\":\"mock \\\"quoted\\\"\",\"steps\":[{\"name\":\"Parse NZB\",\"ms\":1.5}],\"seekMs\":{\"10\":40,\"50\":20,\"90\":30,\"20\":10},\"sequentialMBps\":$value,\"peakRssMB\":129.4,\"fetchedToReadRatio\":1.0012,\"cpuSecondsPerGb\":$cpu,\"MBps\":300,\"serverPeakRssMB\":200,\"held\":$held,\"atHeld\":{\"serverPeakRssMB\":250.5,\"fetchedToServed\":1.05,\"slowestStartMs\":300},\"verification\":{\"enabled\":true,\"passed\":true,\"mismatchedReads\":0},\"passed\":true}"
            """;

        private readonly TempDirectory _directory = new();
        private readonly string _state;
        private readonly string _dotnet;
        private readonly bool _varying;

        private FakeRepository(bool varying)
        {
            _varying = varying;
            Root = Path.Combine(_directory.Path, "repo");
            _state = Path.Combine(_directory.Path, "state");
            _dotnet = Path.Combine(_directory.Path, "dotnet");
            Directory.CreateDirectory(Path.Combine(Root, "tools"));
            Directory.CreateDirectory(_state);
            File.WriteAllText(Path.Combine(Root, "tools", "publish.sh"), PublishScript.ReplaceLineEndings("\n") + "\n");
            File.WriteAllText(_dotnet, DotnetHost.ReplaceLineEndings("\n") + "\n");
            File.SetUnixFileMode(_dotnet, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }

        public string Root { get; }

        public string ShaA { get; private set; } = "";

        public string ShaB { get; private set; } = "";

        public string ShortA => ShaA[..7];

        public string ShortB => ShaB[..7];

        public static async Task<FakeRepository> CreateAsync(bool varying = false)
        {
            var fake = new FakeRepository(varying);
            await fake.GitAsync("init", "-q", ".");
            File.WriteAllText(Path.Combine(fake.Root, "marker"), "100\n");
            await fake.GitAsync("add", "-A");
            await fake.GitAsync("commit", "-q", "-m", "side A: 100");
            File.WriteAllText(Path.Combine(fake.Root, "marker"), "110\n");
            await fake.GitAsync("commit", "-q", "-a", "-m", "side B: 110");
            fake.ShaA = (await fake.GitAsync("rev-parse", "HEAD~1")).Trim();
            fake.ShaB = (await fake.GitAsync("rev-parse", "HEAD")).Trim();
            return fake;
        }

        public Task<ScriptResult> RunAsync(params string[] arguments) => RunAsync(new Dictionary<string, string?>(), arguments);

        public Task<ScriptResult> RunAsync(Dictionary<string, string?> environment, params string[] arguments)
        {
            environment["NZBDAV_BENCH_LOCK"] = "";
            environment["NZBDAV_BENCH_CACHE"] = Path.Combine(_directory.Path, "cache");
            environment["NZBDAV_BENCH_DOTNET"] = _dotnet;
            environment["FAKE_STATE"] = _state;
            if (_varying)
                environment["FAKE_VARYING"] = "1";
            return BenchCompareScriptTests.RunAsync(Root, arguments, environment, FakeDeadline);
        }

        public string[] Publishes() => Lines("publishes");

        public IReadOnlyList<FakeRun> Runs() => [.. Lines("runs").Select(l => l.Split('|', 2)).Select(p => new FakeRun(p[0], p[1]))];

        public void ResetRuns() => File.Delete(Path.Combine(_state, "runs"));

        public async Task<IReadOnlyList<string>> WorktreesAsync() =>
            [.. (await GitAsync("worktree", "list", "--porcelain")).Split('\n').Where(l => l.StartsWith("worktree ", StringComparison.Ordinal))];

        public void Dispose() => _directory.Dispose();

        private string[] Lines(string name)
        {
            var path = Path.Combine(_state, name);
            return File.Exists(path) ? File.ReadAllLines(path) : [];
        }

        private async Task<string> GitAsync(params string[] arguments)
        {
            var environment = new Dictionary<string, string?>
            {
                ["GIT_AUTHOR_NAME"] = "bench", ["GIT_AUTHOR_EMAIL"] = "bench@example.com",
                ["GIT_COMMITTER_NAME"] = "bench", ["GIT_COMMITTER_EMAIL"] = "bench@example.com",
                ["GIT_CONFIG_GLOBAL"] = "/dev/null", ["GIT_CONFIG_NOSYSTEM"] = "1",
            };
            var output = await ExternalTool.RunCheckedAsync("git", arguments, new ToolRun(FakeDeadline, "apt-get install -y git", environment, Root), TestContext.Current.CancellationToken);
            return Encoding.UTF8.GetString(output);
        }
    }
}

using System.Diagnostics;
using System.Text;
using System.Text.Json;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.RealClients;
using NzbDav.Server.Tests.Testing;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.Deployment;

/// <summary>Alone in this process: each publish takes both cores for a minute or more, which would slow timing-sensitive tests beside it.</summary>
[CollectionDefinition(nameof(PublishScriptTests), DisableParallelization = true)]
public sealed class PublishScriptGroup;

/// <summary>
/// The build stage of the Dockerfile, laid out once for the tests of one class: the files its
/// COPY lines take from the repository, where tools/publish.sh then runs as in the image. The
/// publishes share its bin/ and obj/ folders: the libraries are compiled by the first publish only,
/// whichever target it is for, and the two amd64 publishes also share the ReadyToRun step.
/// </summary>
public sealed class PublishWorkspace : IDisposable
{
    private readonly TempDirectory _directory = new();

    public PublishWorkspace()
    {
        Dockerfile = Dockerfile.Read();
        Source = Path.Combine(_directory.Path, "src");
        WithUi = BuildContext.CopyBuildStage(Dockerfile.Stage("build"), Source);
    }

    internal Dockerfile Dockerfile { get; }

    /// <summary>The build stage's WORKDIR.</summary>
    public string Source { get; }

    /// <summary>Whether the web UI was there to copy (the suite's build makes frontend/dist).</summary>
    public bool WithUi { get; }

    public string Output(string name) => Path.Combine(_directory.Path, "out", name);

    public void Dispose() => _directory.Dispose();
}

/// <summary>
/// tools/publish.sh, the one publish the image runs (its build stage calls it for TARGETARCH), for
/// both architectures, on the files the Dockerfile copies: a publish that breaks, or that produces
/// code for the wrong processor, fails here instead of in a release build.
/// </summary>
[Collection(nameof(PublishScriptTests))]
[SlowTest("publishes the server ReadyToRun and self-contained, alone in the process")]
public sealed class PublishScriptTests(PublishWorkspace workspace) : IClassFixture<PublishWorkspace>
{
    // Below the suite's hang timeout (5 minutes per test), so a stuck publish fails with its output.
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(4.5);

    [Fact]
    public void The_image_build_stage_runs_the_script_for_the_target_architecture()
    {
        var build = workspace.Dockerfile.Stage("build");
        Assert.Contains(build.Arguments("RUN"), run => run.Contains("tools/publish.sh \"$TARGETARCH\" /app", StringComparison.Ordinal));
        Assert.Contains(build.Arguments("ARG"), arg => arg.StartsWith("TARGETARCH", StringComparison.Ordinal));
        Assert.Contains(workspace.Dockerfile.Final.Arguments("COPY"), copy => copy == "--from=build /app ./");
    }

    [Fact]
    public async Task Amd64_is_compiled_ahead_of_time_for_x64_and_runs_here()
    {
        var output = await PublishAsync("amd64", "linux-x64");
        AssertArchitecture(output, "linux-x64", BinaryHeaders.ReadyToRunLinuxX64, BinaryHeaders.ElfX64);

        // The x64 output runs on this machine: its health check command against a server answering 200.
        await using var server = new LoopbackHttpServer();
        server.Serve("/health", 200, "{\"status\":\"ok\"}"u8.ToArray());
        var health = await RunAsync(DotnetHost(), [Path.Combine(output, "NzbDav.dll"), "--healthcheck", server.Url("/health").ToString()], null);
        Assert.True(health.ExitCode == 0, $"dotnet NzbDav.dll --healthcheck exited with {health.ExitCode}: {Text(health)}");
    }

    [Fact]
    public async Task Arm64_is_compiled_ahead_of_time_for_arm64()
    {
        var output = await PublishAsync("arm64", "linux-arm64");
        AssertArchitecture(output, "linux-arm64", BinaryHeaders.ReadyToRunLinuxArm64, BinaryHeaders.ElfArm64);
    }

    [Fact]
    public async Task The_self_contained_variant_starts_without_dotnet_installed()
    {
        var output = await PublishAsync("amd64", "linux-x64", "--self-contained");
        AssertArchitecture(output, "linux-x64", BinaryHeaders.ReadyToRunLinuxX64, BinaryHeaders.ElfX64);
        Assert.True(File.Exists(Path.Combine(output, "libcoreclr.so")), "the self-contained output carries no runtime (libcoreclr.so)");

        await using var server = new LoopbackHttpServer();
        server.Serve("/health", 200, "{\"status\":\"ok\"}"u8.ToArray());
        // No dotnet on PATH and no DOTNET_ROOT: only what the folder carries can run it.
        var health = await RunAsync(Path.Combine(output, "NzbDav"), ["--healthcheck", server.Url("/health").ToString()],
            new Dictionary<string, string?> { ["PATH"] = "/usr/bin:/bin", ["DOTNET_ROOT"] = null, ["DOTNET_HOST_PATH"] = null });
        Assert.True(health.ExitCode == 0, $"./NzbDav --healthcheck exited with {health.ExitCode}: {Text(health)}");
        Assert.Contains(": 200", Text(health), StringComparison.Ordinal);
    }

    private async Task<string> PublishAsync(string architecture, string rid, params string[] options)
    {
        var output = workspace.Output(rid + string.Concat(options));
        var script = Path.Combine(workspace.Source, "tools", "publish.sh");
        var watch = Stopwatch.StartNew();
        var result = await RunAsync("bash", [script, architecture, output, .. options], null);
        TestContext.Current.TestOutputHelper?.WriteLine($"tools/publish.sh {architecture} {string.Join(' ', options)}: {watch.Elapsed.TotalSeconds:F1} s");
        Assert.True(result.ExitCode == 0, $"tools/publish.sh {architecture} {string.Join(' ', options)} exited with {result.ExitCode}:\n{Tail(Text(result), 6000)}");
        Assert.True(File.Exists(Path.Combine(output, "NzbDav.dll")), "no NzbDav.dll in " + output);
        // The libraries' IL is the same for every processor; built for one, each target would compile them all again.
        foreach (var library in new[] { "backend/src/NzbDav.Server", "tools/MockNntpServer" })
        {
            var built = Path.Combine(workspace.Source, library, "bin", "Release", "net10.0");
            Assert.True(Directory.Exists(built), $"{library} was not built to {built}");
            Assert.False(Directory.Exists(Path.Combine(built, rid)), $"{library} was built for {rid} alone, not once for every target");
        }
        if (workspace.WithUi)
            Assert.True(File.Exists(Path.Combine(output, "ui", "index.html")), "the web UI (ui/index.html) is missing from " + output);
        return output;
    }

    private static void AssertArchitecture(string output, string rid, ushort readyToRun, ushort elf)
    {
        using (var deps = JsonDocument.Parse(File.ReadAllBytes(Path.Combine(output, "NzbDav.deps.json"))))
            Assert.Equal(".NETCoreApp,Version=v10.0/" + rid, deps.RootElement.GetProperty("runtimeTarget").GetProperty("name").GetString());

        // The product's assemblies, the demo's in-process NNTP server and a package: all compiled for the target.
        foreach (var assembly in new[] { "NzbDav.dll", "NzbDav.Server.dll", "NzbDav.Usenet.dll", "MockNntpServer.dll", "Serilog.dll" })
        {
            var machine = BinaryHeaders.PeMachine(Path.Combine(output, assembly));
            Assert.True(machine == readyToRun, $"{assembly}: COFF machine 0x{machine:X4}, expected 0x{readyToRun:X4} (ReadyToRun for {rid})");
        }

        // Native code: the apphost and SQLite.
        foreach (var native in new[] { "NzbDav", "libe_sqlite3.so" })
        {
            var machine = BinaryHeaders.ElfMachine(Path.Combine(output, native));
            Assert.True(machine == elf, $"{native}: ELF machine 0x{machine:X2}, expected 0x{elf:X2} ({rid})");
        }
    }

    private async Task<ToolResult> RunAsync(string tool, IReadOnlyList<string> arguments, Dictionary<string, string?>? environment)
    {
        environment ??= [];
        // The test host inherits the variables `dotnet test` gives MSBuild; a publish of its own must not.
        foreach (var name in Environment.GetEnvironmentVariables().Keys.Cast<string>())
        {
            if (name.StartsWith("MSBUILD", StringComparison.OrdinalIgnoreCase) && !environment.ContainsKey(name))
                environment[name] = null;
        }
        // The SDK the tests run with, also where PATH lacks it.
        if (!environment.ContainsKey("PATH") && Path.GetDirectoryName(DotnetHost()) is { Length: > 0 } dotnet)
            environment["PATH"] = dotnet + ":" + Environment.GetEnvironmentVariable("PATH");
        return await ExternalTool.RunAsync(tool, arguments, new ToolRun(Deadline, "the .NET 10 SDK", environment, workspace.Source), TestContext.Current.CancellationToken);
    }

    private static string DotnetHost() => Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";

    private static string Text(ToolResult result) => Encoding.UTF8.GetString(result.Output) + result.Errors;

    private static string Tail(string text, int length) => text.Length <= length ? text : "…" + text[^length..];
}

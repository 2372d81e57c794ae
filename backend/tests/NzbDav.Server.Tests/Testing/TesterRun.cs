using System.Text.Json;
using NzbDav.Tools.Testing;

namespace NzbDav.Server.Tests.Testing;

/// <summary>One in-process run of <c>--test-full-nzb</c> with its exit code and captured output.</summary>
internal sealed record TesterRun(int ExitCode, string Output, string Error)
{
    public static async Task<TesterRun> StartAsync(params string[] args)
    {
        // Keep the test log readable: the tester's own progress lines are Information.
        string[] quiet = [.. args, "--Serilog:MinimumLevel:Default=Warning"];
        using var output = new StringWriter();
        using var error = new StringWriter();
        var exitCode = await FullNzbTesterCommand.RunAsync(quiet, output, error, TestContext.Current.CancellationToken);
        TestContext.Current.TestOutputHelper?.WriteLine($"exit {exitCode}\n{output}\n{error}");
        return new TesterRun(exitCode, output.ToString(), error.ToString());
    }

    /// <summary>The last line of output, parsed as the JSON report.</summary>
    public JsonElement Json()
    {
        var last = Output.TrimEnd().Split('\n')[^1];
        using var document = JsonDocument.Parse(last);
        return document.RootElement.Clone();
    }
}

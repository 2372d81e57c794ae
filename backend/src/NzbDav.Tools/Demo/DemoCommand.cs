using Serilog;

namespace NzbDav.Tools.Demo;

/// <summary>Console entry of <c>--demo</c>: start the demo, print its line, serve until Ctrl+C.</summary>
public static class DemoCommand
{
    public static async Task<int> RunConsoleAsync(string[] args)
    {
        try
        {
            await using var session = await DemoRunner.StartAsync(args, Console.Out, CancellationToken.None);
            await session.WaitForShutdownAsync(CancellationToken.None);
            return 0;
        }
        catch (Exception ex) when (ex is DemoFailedException or IOException or InvalidOperationException)
        {
            // Serilog may not be configured when the host itself failed to start: say it on stderr too.
            await Console.Error.WriteLineAsync("NzbDav demo failed: " + ex.Message);
            return 1;
        }
        catch (OperationCanceledException)
        {
            // Ctrl+C before the sample jobs completed.
            await Console.Error.WriteLineAsync("NzbDav demo stopped before it was ready.");
            return 1;
        }
        finally
        {
            await Log.CloseAndFlushAsync();
        }
    }
}

using NzbDav.Server.Demo;
using NzbDav.Server.Testing;
using NzbDav.Server.Testing.DavBenchmark;
using Serilog;

namespace NzbDav.Server.Hosting;

/// <summary>Process entry: logging first, then the web host.</summary>
public static class NzbDavProgram
{
    public static async Task<int> RunAsync(string[] args)
    {
        if (args is ["--healthcheck", var url])
        {
            return await HealthCheckCommand.RunAsync(url, CancellationToken.None);
        }

        if (args is ["--test-full-nzb", .. var testerArgs])
        {
            return await FullNzbTesterCommand.RunConsoleAsync(testerArgs);
        }

        if (args is ["--test-webdav", .. var benchmarkArgs])
        {
            return await WebDavBenchmarkCommand.RunConsoleAsync(benchmarkArgs);
        }

        if (args.Contains("--demo"))
        {
            return await DemoCommand.RunConsoleAsync([.. args.Where(a => a != "--demo")]);
        }

        var app = NzbDavHost.Build(args);
        try
        {
            await app.RunAsync();
            return 0;
        }
        catch (Exception ex) when (ex is IOException or InvalidOperationException)
        {
            // Most often the port is taken or the configuration is invalid: say so plainly.
            app.Services.GetRequiredService<ILogger<NzbDavHost>>().LogCritical(ex, "NzbDav stopped: {Reason}", ex.Message);
            return 1;
        }
        finally
        {
            await Log.CloseAndFlushAsync();
        }
    }
}

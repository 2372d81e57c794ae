using NzbDav.Server.Hosting;
using NzbDav.Tools.Demo;
using NzbDav.Tools.Testing;
using NzbDav.Tools.Testing.Crash;
using NzbDav.Tools.Testing.DavBenchmark;
using NzbDav.Tools.Testing.Scale;
using NzbDav.Tools.Testing.ServeCpu;
using NzbDav.Tools.Testing.Soak;

// The one binary users run. Without a command it is the server (NzbDav.Server); the benchmark
// commands the design card names and demo mode are NzbDav.Tools, reached only through these flags.
ThreadPoolFloor.Apply();
return args switch
{
    ["--healthcheck", var url] => await HealthCheckCommand.RunAsync(url, CancellationToken.None),
    ["--migrate-to-postgres", .. var migrateArgs] => await MigrateToPostgresCommand.RunConsoleAsync(migrateArgs),
    ["--test-full-nzb", .. var testerArgs] => await FullNzbTesterCommand.RunConsoleAsync(testerArgs),
    ["--test-webdav", .. var benchmarkArgs] => await WebDavBenchmarkCommand.RunConsoleAsync(benchmarkArgs),
    ["--test-serve-cpu", .. var serveCpuArgs] => await ServeCpuCommand.RunConsoleAsync(serveCpuArgs),
    ["--test-soak", .. var soakArgs] => await SoakCommand.RunConsoleAsync(soakArgs),
    ["--test-scale", .. var scaleArgs] => await ScaleCommand.RunConsoleAsync(scaleArgs),
    ["--test-crash", .. var crashArgs] => await CrashCommand.RunConsoleAsync(crashArgs),
    ["--test-par2-memory", .. var par2Args] => await NzbDav.Tools.Testing.Par2Memory.Par2MemoryCommand.RunConsoleAsync(par2Args),
    _ when args.Contains("--demo") => await DemoCommand.RunConsoleAsync([.. args.Where(a => a != "--demo")]),
    _ => await NzbDavHost.RunAsync(args),
};

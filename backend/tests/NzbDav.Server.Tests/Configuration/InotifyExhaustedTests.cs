using System.Runtime.InteropServices;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.WebDav;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.Configuration;

/// <summary>Runs alone in this process: while it holds every inotify instance nothing else here may need one.</summary>
[CollectionDefinition(nameof(InotifyExhaustedTests), DisableParallelization = true)]
public sealed class InotifyExhaustedGroup;

/// <summary>
/// A machine whose per-user inotify instances are all taken (Plex, Syncthing, an IDE): the server
/// still starts, says that settings.json is polled, and still applies a change to it.
/// </summary>
[Collection(nameof(InotifyExhaustedTests))]
[SlowTest("takes every inotify instance of the user, alone in the process")]
public sealed class InotifyExhaustedTests
{
    private const int TooManyOpenFiles = 24; // EMFILE: the per-user instance limit is reached

    [Fact]
    public async Task With_no_inotify_instance_left_the_server_starts_and_polls_its_settings_file()
    {
        var ct = TestContext.Current.CancellationToken;
        if (!OperatingSystem.IsLinux())
            Assert.Skip("inotify is Linux's");

        var held = new List<int>();
        try
        {
            // The limit is per user, across processes: another process (a test host that ends, a
            // build node) may free an instance between our taking the last one and the server asking
            // for one. The server then watches normally, which proves nothing here, so that round is
            // repeated after taking what was freed.
            for (var round = 1; ; round++)
            {
                TakeEveryInstance(held);
                using var data = new TempDirectory();
                var logs = new LogCapture();
                await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, services => services.AddSingleton<ILoggerProvider>(logs), ct);
                if (!logs.Entries.Any(e => e.Any(v => v.Key == "File" && Equals(v.Value, RuntimeSettings.FileName))))
                {
                    Assert.True(round < 10, "In 10 rounds another process always freed an inotify instance before the server asked for one.");
                    continue;
                }

                var options = server.Services.GetRequiredService<IOptionsMonitor<NzbDavOptions>>();
                Assert.NotEqual(4321, options.CurrentValue.MaxNzbBytes);
                var path = RuntimeSettings.PathIn(data.Path);
                await File.WriteAllTextAsync(path + ".tmp", """{ "NzbDav": { "MaxNzbBytes": 4321 } }""", ct);
                File.Move(path + ".tmp", path, overwrite: true);

                using var deadline = CancellationTokenSource.CreateLinkedTokenSource(ct);
                deadline.CancelAfter(TimeSpan.FromSeconds(30));
                var changed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                using var subscription = options.OnChange(o =>
                {
                    if (o.MaxNzbBytes == 4321)
                        changed.TrySetResult();
                });
                if (options.CurrentValue.MaxNzbBytes != 4321)
                    await changed.Task.WaitAsync(deadline.Token);
                return;
            }
        }
        finally
        {
            foreach (var fd in held)
            {
                _ = close(fd);
            }
        }
    }

    /// <summary>Takes every instance the kernel will give this user now (a few thousand at most on any machine).</summary>
    private static void TakeEveryInstance(List<int> held)
    {
        while (held.Count < 100_000)
        {
            var fd = inotify_init1(0);
            if (fd < 0)
            {
                Assert.Equal(TooManyOpenFiles, Marshal.GetLastPInvokeError());
                return;
            }

            held.Add(fd);
        }
    }

    [DllImport("libc", SetLastError = true)]
    private static extern int inotify_init1(int flags);

    [DllImport("libc", SetLastError = true)]
    private static extern int close(int fd);
}

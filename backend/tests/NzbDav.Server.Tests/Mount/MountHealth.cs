using System.Diagnostics;
using System.Text.Json;
using NzbDav.Server.Tests.Api;

namespace NzbDav.Server.Tests.Mount;

/// <summary>The managed mount as /health reports it, waited on by the tests that run it.</summary>
internal static class MountHealth
{
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(30);

    /// <summary>The mount's part of /health once it is mounted; skips when FUSE refused the mount (an unprivileged container).</summary>
    public static async Task<JsonElement> WaitMountedAsync(TestServer server, CancellationToken cancellationToken)
    {
        var health = await WaitAsync(server, h => h.GetProperty("state").GetString() is "mounted" or "failed", cancellationToken);
        if (health.GetProperty("state").GetString() == "failed")
            Assert.Skip("FUSE is not usable here: " + health.GetProperty("lastError").GetString());
        return health;
    }

    /// <summary>The mount's part of /health once <paramref name="done"/> holds for it.</summary>
    public static async Task<JsonElement> WaitAsync(TestServer server, Func<JsonElement, bool> done, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        while (true)
        {
            using var response = await server.Http.GetAsync("/health", cancellationToken);
            using var body = JsonDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken));
            var mount = body.RootElement.GetProperty("mount").Clone();
            if (done(mount))
                return mount;
            if (Stopwatch.GetElapsedTime(started) > Deadline)
                Assert.Fail("The mount did not get there in time; /health says " + mount);
            await Task.Delay(50, cancellationToken);
        }
    }
}

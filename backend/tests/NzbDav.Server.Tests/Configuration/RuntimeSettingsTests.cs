using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Nzb;
using NzbDav.Server.Configuration;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Server.Tests.WebDav;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;
using static NzbDav.Testing.Waiting;

namespace NzbDav.Server.Tests.Configuration;

/// <summary>
/// settings.json in the data directory, changed while the server runs: providers and caps apply
/// without a restart, through the one configuration path, and a bad change is refused and said.
/// </summary>
public sealed class RuntimeSettingsTests
{
    [Fact]
    public async Task Providers_added_while_running_are_used_without_a_restart_and_a_bad_change_is_refused()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var nntp = new MockNntpServer(new MockNntpOptions { MaxConnections = 4 });
        var video = nntp.Store.AddGeneratedFile("Show.S01E01.mkv", 5L * 40_000 + 11, 40_000);
        await nntp.StartAsync(ct);
        using var data = new TempDirectory();
        var logs = new LogCapture();
        await using var host = await IngestionHost.StartAsync(data.Path, null, logs, ct);
        var client = host.Server.Services.GetRequiredService<UsenetClient>();
        Assert.Equal(0, client.ProviderCount);

        // A fresh install: the job fails saying why.
        var before = await host.AddAndWaitAsync(Nzb(nntp), "Show.S01E01.nzb", ct);
        Assert.Equal("Failed", before.GetProperty("status").GetString());
        Assert.Contains("No Usenet provider is configured", before.GetProperty("fail_message").GetString());

        // The user adds the provider; the running server takes it.
        await WriteSettingsAsync(data.Path, nntp.Port, maxConnections: 4, ct);
        await WaitUntilAsync(() => client.ProviderCount == 1, ct);
        var after = await host.AddAndWaitAsync(Nzb(nntp), "Show.S01E01.nzb", ct);
        Assert.Equal("Completed", after.GetProperty("status").GetString());
        var folder = after.GetProperty("name").GetString()!;
        using (var response = await host.GetAsync(folder, video.Name, ct))
        {
            Assert.Equal(200, (int)response.StatusCode);
            Assert.Equal(video.ReadExpected(0, (int)video.Size), await response.Content.ReadAsByteArrayAsync(ct));
        }

        // A lower cap applies to the pool and the limiter's budget at once.
        await WriteSettingsAsync(data.Path, nntp.Port, maxConnections: 2, ct);
        // The pool and the limiter are told one after the other; both must follow.
        var limiter = host.Server.Services.GetRequiredService<GlobalOperationLimiter>();
        await WaitUntilAsync(() => Assert.Single(client.GetProviderStatus()).Pool.MaxConnections == 2 && limiter.Options.TotalConnections == 2, ct);

        // An invalid change (a cap of 0) is refused and logged; the running provider stays.
        await WriteSettingsAsync(data.Path, nntp.Port, maxConnections: 0, ct);
        await WaitUntilAsync(() => logs.Entries.Any(e => e.Any(v => v.Key == "Settings" && Equals(v.Value, nameof(UsenetOptions)))), ct);
        Assert.Equal(2, Assert.Single(client.GetProviderStatus()).Pool.MaxConnections);
        using (var again = await host.GetAsync(folder, video.Name, ct, "bytes=0-99"))
        {
            Assert.Equal(206, (int)again.StatusCode);
        }
    }

    [Fact]
    public async Task The_settings_file_overrides_appsettings_but_not_the_command_line()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await File.WriteAllTextAsync(RuntimeSettings.PathIn(data.Path), """{ "NzbDav": { "MaxNzbBytes": 1234, "AddUrlTimeout": "00:00:07" } }""", ct);

        await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct, "--NzbDav:AddUrlTimeout=00:00:09");

        var options = server.Services.GetRequiredService<Microsoft.Extensions.Options.IOptionsMonitor<NzbDavOptions>>().CurrentValue;
        Assert.Equal(1234, options.MaxNzbBytes);
        Assert.Equal(TimeSpan.FromSeconds(9), options.AddUrlTimeout);
    }

    private static byte[] Nzb(MockNntpServer nntp)
    {
        using var stream = new MemoryStream();
        MockNzbWriter.Write(stream, nntp.Store.Files, "Show.S01E01", DateTimeOffset.FromUnixTimeSeconds(1_700_000_000));
        return stream.ToArray();
    }

    private static async Task WriteSettingsAsync(string dataDirectory, int port, int maxConnections, CancellationToken cancellationToken)
    {
        var settings = new
        {
            Usenet = new
            {
                Providers = new[] { new { Name = "mock", Host = "127.0.0.1", Port = port, UseTls = false, MaxConnections = maxConnections } },
            },
        };
        // Written beside and moved into place, as an editor or the UI would, so the watcher never sees half a file.
        var path = RuntimeSettings.PathIn(dataDirectory);
        await File.WriteAllTextAsync(path + ".tmp", JsonSerializer.Serialize(settings), cancellationToken);
        File.Move(path + ".tmp", path, overwrite: true);
    }
}

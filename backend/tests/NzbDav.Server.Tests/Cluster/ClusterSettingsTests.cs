using System.Diagnostics;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Server.Tests.WebUi;
using NzbDav.Testing;
using NzbDav.Testing.Postgres;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Tests.Cluster;

/// <summary>What the web UI saves on one node is in effect on the others (LISTEN/NOTIFY on PostgreSQL).</summary>
public sealed class ClusterSettingsTests(MockProviderFixture provider)
{
    [Fact]
    public async Task A_provider_and_a_setting_saved_on_one_node_are_in_effect_on_the_other_within_a_second()
    {
        var ct = TestContext.Current.CancellationToken;
        var output = TestContext.Current.TestOutputHelper;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        using var dataA = new TempDirectory();
        using var dataB = new TempDirectory();
        await using var a = await IngestionHost.StartAsync(dataA.Path, provider.Port, ct, null, [.. database.HostArguments(), "--Cluster:NodeName=a"]);
        await using var b = await IngestionHost.StartAsync(dataB.Path, provider.Port, ct, null, [.. database.HostArguments(), "--Cluster:NodeName=b"]);
        var saving = a.Server.Services.GetRequiredService<StoredSettings>();
        var usenetB = b.Server.Services.GetRequiredService<IOptionsMonitor<UsenetOptions>>();
        var configurationB = b.Server.Services.GetRequiredService<IConfiguration>();

        async Task<TimeSpan> AppliedOnBAsync(Func<Task> save, Func<bool> applied, string what)
        {
            var started = Stopwatch.GetTimestamp();
            await save();
            await Waiting.WaitUntilAsync(applied, TimeSpan.FromSeconds(10), ct, what);
            var elapsed = Stopwatch.GetElapsedTime(started);
            output?.WriteLine($"{what}: {elapsed.TotalMilliseconds:F0} ms");
            return elapsed;
        }

        var added = await AppliedOnBAsync(
            () => saving.SaveProviderAsync(null, new UsenetProviderOptions { Name = "shared", Host = "127.0.0.1", Port = provider.Port, UseTls = false, MaxConnections = 12 }, ct),
            () => usenetB.CurrentValue.Providers.Any(p => p.Name == "shared" && p.MaxConnections == 12), "a provider added on a, in effect on b");
        var lowered = await AppliedOnBAsync(
            () => saving.SaveProviderAsync("shared", new UsenetProviderOptions { Name = "shared", Host = "127.0.0.1", Port = provider.Port, UseTls = false, MaxConnections = 3 }, ct),
            () => usenetB.CurrentValue.Providers.Single(p => p.Name == "shared").MaxConnections == 3, "its max connections lowered on a, in effect on b");
        var setting = await AppliedOnBAsync(
            () => saving.SaveSettingsAsync(new Dictionary<string, string?> { ["Health:MaxConsecutiveMissing"] = "9" }, ct),
            () => configurationB["Health:MaxConsecutiveMissing"] == "9", "a health setting saved on a, in effect on b");

        // The bound is 1 s; a loaded test machine gets some slack, the figure goes to the output.
        Assert.All(new[] { added, lowered, setting }, elapsed => Assert.True(elapsed < TimeSpan.FromSeconds(3), $"{elapsed.TotalMilliseconds:F0} ms"));
    }

    [Fact]
    public async Task A_web_ui_session_made_on_one_node_is_good_on_the_other()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        using var dataA = new TempDirectory();
        using var dataB = new TempDirectory();
        string[] account = ["--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin];
        await using var a = await IngestionHost.StartAsync(dataA.Path, provider.Port, ct, null, [.. database.HostArguments(), .. account]);
        await using var b = await IngestionHost.StartAsync(dataB.Path, provider.Port, ct, null, [.. database.HostArguments(), .. account]);
        using var ui = new UiClient(a.Dav.BaseAddress!);
        await ui.LoginAsync("admin", Admin, ct);

        // The same cookies to the other node (a load balancer sends the next request anywhere).
        using var other = new HttpClient { BaseAddress = b.Dav.BaseAddress };
        using var request = new HttpRequestMessage(HttpMethod.Get, "/ui/api/session");
        request.Headers.Add("Cookie", ui.Cookies.GetCookieHeader(new Uri(a.Dav.BaseAddress!, "/ui/api/session")));
        using var response = await other.SendAsync(request, ct);
        var session = System.Text.Json.JsonDocument.Parse(await response.Content.ReadAsStringAsync(ct)).RootElement;
        Assert.True(session.GetProperty("authenticated").GetBoolean());
        Assert.Equal("admin", session.GetProperty("user").GetString());
    }

    private const string Admin = "cluster-admin-password-1";
}

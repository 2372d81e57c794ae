using System.Net;
using System.Text.Json;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Tests.WebUi;

namespace NzbDav.Server.Tests.Health;

/// <summary>The Health page's calls over real sockets: Check now, and a running check's progress.</summary>
public sealed class HealthUiTests
{
    private const string Password = "correct horse battery";

    [Fact]
    public async Task Check_now_from_the_UI_checks_every_segment_and_says_an_empty_file_has_nothing_to_lose()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password);
        var (itemId, ui) = await AddAndLogInAsync(health, ct);
        using var session = ui;

        var checkedFile = await ReadAsync(await ui.PostAsync($"/ui/api/health/files/{itemId}/check", new { }, ct), HttpStatusCode.OK, ct);
        Assert.Contains($"Checked {HealthHost.Segments} segments: {HealthHost.Segments} present", checkedFile.GetProperty("message").GetString(), StringComparison.Ordinal);
        Assert.Equal("healthy", checkedFile.GetProperty("file").GetProperty("state").GetString());

        // An empty file of the release (no articles at all) is still in the library: it is not "gone".
        var emptyId = Guid.NewGuid();
        await using (var context = await health.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(ct))
        {
            var file = await context.DavItems.AsNoTracking().SingleAsync(i => i.Id == itemId, ct);
            context.DavItems.Add(new DavItem { Id = emptyId, JobId = file.JobId, ParentId = file.ParentId, Name = "empty.nfo", Path = file.Path[..(file.Path.LastIndexOf('/') + 1)] + "empty.nfo", Size = 0 });
            await context.SaveChangesAsync(ct);
        }
        var empty = await ReadAsync(await ui.PostAsync($"/ui/api/health/files/{emptyId}/check", new { }, ct), HttpStatusCode.OK, ct);
        Assert.Contains("no articles to check", empty.GetProperty("message").GetString(), StringComparison.Ordinal);

        var unknown = await ReadAsync(await ui.PostAsync($"/ui/api/health/files/{Guid.NewGuid()}/check", new { }, ct), HttpStatusCode.NotFound, ct);
        Assert.Contains("no library file", unknown.GetProperty("error").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_running_check_shows_on_the_health_page_how_many_segments_have_answered()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password);
        var (itemId, ui) = await AddAndLogInAsync(health, ct);
        using var session = ui;

        async Task<JsonElement> FileAsync()
        {
            var view = await ui.GetJsonAsync("/ui/api/health", ct);
            return view.GetProperty("files").EnumerateArray().Single(f => f.GetProperty("id").GetGuid() == itemId);
        }

        Assert.Equal(JsonValueKind.Null, (await FileAsync()).GetProperty("checking").ValueKind);
        // A slow provider: the check of every segment takes seconds, long enough to be seen running.
        health.Primary.Behavior.Latency = TimeSpan.FromSeconds(2);
        var check = ui.PostAsync($"/ui/api/health/files/{itemId}/check", new { }, ct);
        JsonElement running;
        while ((running = (await FileAsync()).GetProperty("checking")).ValueKind == JsonValueKind.Null)
            Assert.False(check.IsCompleted, "the check ended before the page saw it running");
        Assert.Equal(HealthHost.Segments, running.GetProperty("segments").GetInt32());
        var answered = running.GetProperty("answered").GetInt32();
        Assert.InRange(answered, 0, HealthHost.Segments);
        Assert.Equal(answered, running.GetProperty("present").GetInt32() + running.GetProperty("missing").GetInt32() + running.GetProperty("unknown").GetInt32());

        var done = await ReadAsync(await check, HttpStatusCode.OK, ct);
        Assert.Contains($"Checked {HealthHost.Segments} segments: {HealthHost.Segments} present", done.GetProperty("message").GetString(), StringComparison.Ordinal);
        Assert.Equal(JsonValueKind.Null, done.GetProperty("file").GetProperty("checking").ValueKind);
        Assert.Equal(JsonValueKind.Null, (await FileAsync()).GetProperty("checking").ValueKind);
        Assert.Equal(HealthHost.ConfirmDelay.TotalMinutes, (await ui.GetJsonAsync("/ui/api/health", ct)).GetProperty("policy").GetProperty("confirmDelayMinutes").GetDouble(), 6);
    }

    private static async Task<JsonElement> ReadAsync(HttpResponseMessage response, HttpStatusCode expected, CancellationToken cancellationToken)
    {
        using (response)
        {
            var body = await response.Content.ReadAsStringAsync(cancellationToken);
            Assert.True(response.StatusCode == expected, $"{(int)response.StatusCode}: {body}");
            return JsonDocument.Parse(body).RootElement.Clone();
        }
    }


    /// <summary>Adds the mock's release, waits for its file, and logs in to the web UI.</summary>
    private static async Task<(Guid ItemId, UiClient Ui)> AddAndLogInAsync(HealthHost health, CancellationToken ct)
    {
        await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        var ui = new UiClient(health.Host.Server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Password, ct);
        return (itemId, ui);
    }
}

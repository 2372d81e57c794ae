using System.Net;
using System.Net.Http.Json;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Server.Hosting;

namespace NzbDav.Server.Tests.Hosting;

public sealed class HealthEndpointTests
{
    [Fact]
    public async Task Health_answers_ok_over_a_real_socket()
    {
        var ct = TestContext.Current.CancellationToken;
        // A data directory of its own: the default one is shared by every host started without one,
        // and two migrating one database at once collide.
        using var data = new Data.TempDirectory();
        await using var app = NzbDavHost.Build(["--urls", "http://127.0.0.1:0", "--NzbDav:DataDirectory=" + data.Path]);
        await app.StartAsync(ct);
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.Single();

        using var http = new HttpClient { BaseAddress = new Uri(address) };
        using var response = await http.GetAsync("/health", ct);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var body = await response.Content.ReadFromJsonAsync<HealthResponse>(ct);
        Assert.Equal("ok", body!.Status);
        await app.StopAsync(ct);
    }
}

namespace NzbDav.Server.Hosting;

/// <summary>
/// <c>--healthcheck URL</c>: exits 0 when the URL answers 2xx within five seconds, 1 otherwise.
/// Container images without curl use it as their HEALTHCHECK.
/// </summary>
public static class HealthCheckCommand
{
    public static async Task<int> RunAsync(string url, CancellationToken cancellationToken)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
        try
        {
            using var response = await http.GetAsync(url, cancellationToken);
            Console.WriteLine($"{url}: {(int)response.StatusCode}");
            return response.IsSuccessStatusCode ? 0 : 1;
        }
        catch (Exception ex) when (ex is HttpRequestException or TaskCanceledException or UriFormatException or InvalidOperationException)
        {
            Console.Error.WriteLine($"{url}: {ex.Message}");
            return 1;
        }
    }
}

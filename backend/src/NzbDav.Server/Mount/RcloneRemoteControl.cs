using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;

namespace NzbDav.Server.Mount;

/// <summary>
/// rclone's remote control API on loopback, with credentials only this run knows: refresh of
/// changed folders and the VFS cache's use. See https://rclone.org/rc/.
/// </summary>
internal sealed class RcloneRemoteControl : IDisposable
{
    private readonly HttpClient _http;

    public RcloneRemoteControl(int port, string user, string password)
    {
        _http = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}/"), Timeout = TimeSpan.FromSeconds(30) };
        _http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes(user + ":" + password)));
    }

    /// <summary>
    /// Makes rclone forget its listings of <paramref name="directories"/> (relative to the mount's
    /// root, e.g. "content/tv"), so the next look into them asks NzbDav again.
    /// </summary>
    public async Task ForgetAsync(IReadOnlyList<string> directories, CancellationToken cancellationToken)
    {
        // vfs/forget takes dir, dir2, dir3…: one call for the whole batch.
        var body = new Dictionary<string, string>(StringComparer.Ordinal);
        for (var i = 0; i < directories.Count; i++)
            body[i == 0 ? "dir" : "dir" + (i + 1).ToString(System.Globalization.CultureInfo.InvariantCulture)] = directories[i];
        using var response = await _http.PostAsJsonAsync("vfs/forget", body, cancellationToken);
        if (!response.IsSuccessStatusCode)
            throw new HttpRequestException($"rclone vfs/forget answered {(int)response.StatusCode}: {(await response.Content.ReadAsStringAsync(cancellationToken)).Trim()}");
    }

    /// <summary>Bytes in the VFS disk cache, or null when rclone keeps none (cache mode off).</summary>
    public async Task<long?> CacheBytesAsync(CancellationToken cancellationToken)
    {
        using var response = await _http.PostAsJsonAsync("vfs/stats", new Dictionary<string, string>(), cancellationToken);
        response.EnsureSuccessStatusCode();
        using var stats = JsonDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken));
        return stats.RootElement.TryGetProperty("diskCache", out var disk) && disk.TryGetProperty("bytesUsed", out var used) ? used.GetInt64() : null;
    }

    public void Dispose() => _http.Dispose();
}

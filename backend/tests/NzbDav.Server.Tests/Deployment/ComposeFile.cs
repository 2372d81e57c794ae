using System.Text.Json;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.RealClients;

namespace NzbDav.Server.Tests.Deployment;

/// <summary>A volume of a rendered compose service: source, target, and the bind propagation or mode.</summary>
internal sealed record ComposeVolume(string Source, string Target, string? Propagation);

/// <summary>
/// A compose file as Debian's docker-compose (a real compose parser) validates and renders it: the
/// rendered YAML is read into JSON with the PyYAML docker-compose itself runs on.
/// </summary>
internal static class ComposeFile
{
    private const string Install = "apt-get install -y docker-compose";

    /// <summary>The value the sidecar file requires for the WebDAV password while it is checked.</summary>
    public const string Password = "a-password-for-the-test";

    /// <summary><c>docker-compose -f FILE config -q</c>: its result, with or without the sidecar's password.</summary>
    public static Task<ToolResult> ValidateAsync(string relativePath, bool withPassword, CancellationToken ct) =>
        ExternalTool.RunAsync("docker-compose", ["-f", Repository.PathOf(relativePath), "config", "-q"], Run(withPassword), ct);

    /// <summary>The file as docker-compose renders it (<c>docker-compose -f FILE config</c>), as JSON.</summary>
    public static async Task<JsonElement> RenderAsync(string relativePath, CancellationToken ct)
    {
        var rendered = await ExternalTool.RunAsync("docker-compose", ["-f", Repository.PathOf(relativePath), "config"], Run(withPassword: true), ct);
        Assert.True(rendered.ExitCode == 0, $"docker-compose -f {relativePath} config exited with {rendered.ExitCode}: {rendered.Errors}");
        using var work = new TempDirectory();
        var yaml = Path.Combine(work.Path, "rendered.yml");
        await File.WriteAllBytesAsync(yaml, rendered.Output, ct);
        var json = await ExternalTool.RunCheckedAsync("python3",
            ["-c", "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)", yaml], Run(withPassword: true), ct);
        return JsonDocument.Parse(json).RootElement.Clone();
    }

    public static JsonElement Service(this JsonElement config, string name)
    {
        Assert.True(config.GetProperty("services").TryGetProperty(name, out var service), $"no service '{name}'");
        return service;
    }

    /// <summary>The strings of a list property (devices, cap_add, …), empty when it is absent.</summary>
    public static string[] Strings(this JsonElement service, string property) =>
        service.TryGetProperty(property, out var list) ? [.. list.EnumerateArray().Select(e => e.ToString())] : [];

    public static string? Environment(this JsonElement service, string name) =>
        service.TryGetProperty("environment", out var environment) && environment.TryGetProperty(name, out var value) ? value.ToString() : null;

    /// <summary>The service's volumes, short ("src:dst:mode") and long syntax alike.</summary>
    public static ComposeVolume[] Volumes(this JsonElement service)
    {
        if (!service.TryGetProperty("volumes", out var volumes))
            return [];
        return [.. volumes.EnumerateArray().Select(volume =>
        {
            if (volume.ValueKind == JsonValueKind.String)
            {
                var parts = volume.GetString()!.Split(':');
                return new ComposeVolume(parts[0], parts[1], parts.Length > 2 ? parts[2] : null);
            }
            var propagation = volume.TryGetProperty("bind", out var bind) && bind.TryGetProperty("propagation", out var p) ? p.GetString() : null;
            return new ComposeVolume(volume.GetProperty("source").GetString()!, volume.GetProperty("target").GetString()!, propagation);
        })];
    }

    private static ToolRun Run(bool withPassword) => new(TimeSpan.FromMinutes(1), Install, new Dictionary<string, string?>
    {
        ["NZBDAV_WEBDAV_PASSWORD"] = withPassword ? Password : null,
        ["NZBDAV_POSTGRES_PASSWORD"] = withPassword ? Password : null,
        // Only the file named on the command line, whatever the machine's shell has set.
        ["COMPOSE_FILE"] = null,
        ["COMPOSE_PROFILES"] = null,
        ["COMPOSE_PROJECT_NAME"] = null,
    });
}

using System.Text;
using NzbDav.Server.Tests.Ingestion;

namespace NzbDav.Server.Tests.RealClients;

/// <summary>An rclone config file with one <c>nzbdav</c> webdav remote (vendor other, obscured password) for a run's host.</summary>
internal static class RcloneConfig
{
    public const string Remote = "nzbdav";

    public static async Task<string> WriteAsync(IngestionRun run, string directory, CancellationToken cancellationToken)
    {
        var obscured = Encoding.UTF8.GetString(await ExternalTool.RunCheckedAsync("rclone", ["obscure", IngestionHost.Password], cancellationToken)).Trim();
        var path = Path.Combine(directory, "rclone.conf");
        await File.WriteAllTextAsync(path, $"""
            [{Remote}]
            type = webdav
            url = {RealClientRun.Root(run)}
            vendor = other
            user = {RealClientRun.User}
            pass = {obscured}

            """, cancellationToken);
        return path;
    }
}

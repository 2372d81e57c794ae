using System.Net;
using Microsoft.Extensions.Options;
using NzbDav.Server.Auth;
using NzbDav.Server.Configuration;
using NzbDav.Server.Live;
using NzbDav.Server.Mount;
using NzbDav.Server.WebDav;

namespace NzbDav.Server.WebUi;

/// <summary>
/// Settings → Integrations: the exact values a user enters elsewhere — Sonarr/Radarr's SABnzbd
/// download client, the rclone remote and mount command, a docker-compose snippet, the Plex/Jellyfin
/// library paths — built from this server's own settings and the address the browser reached it at
/// (or <c>NzbDav:WebDav:PublicUrl</c>), and a check that reads one library file through
/// <c>NzbDav:MountPath</c> and says what is wrong when it cannot.
/// </summary>
public static partial class UiIntegrationsEndpoints
{
    /// <summary>Stands in for the WebDAV password, which NzbDav keeps only as a hash.</summary>
    internal const string PasswordPlaceholder = "<your WebDAV password>";

    public static void MapUiIntegrations(this RouteGroupBuilder api)
    {
        api.MapGet("/integrations", static (HttpContext context, [AsParameters] IntegrationSettings settings) => Results.Ok(Values(context, settings)))
            .RequireAuthorization().Produces<UiIntegrations>();
        api.MapPost("/integrations/check", CheckAsync).RequireAuthorization().Produces<UiMountCheckResult>();
    }

    /// <summary>What the values are made of, bound per request: the settings and the key in effect.</summary>
    internal sealed record IntegrationSettings(
        IOptionsMonitor<NzbDavOptions> Options, IOptionsMonitor<WebDavOptions> Dav, IOptionsMonitor<MountOptions> Mount, MountState MountState,
        ApiKeyProvider ApiKeys, WebDavCredentials Credentials);

    internal static UiIntegrations Values(HttpContext context, IntegrationSettings settings)
    {
        var options = settings.Options.CurrentValue;
        var dav = settings.Dav.CurrentValue;
        var mountOptions = settings.Mount.CurrentValue;
        var mount = settings.MountState.Current;
        var apiKey = settings.ApiKeys.ApiKey ?? "";
        var address = AddressOf(context.Request, dav.PublicUrl);
        var mountPath = MountRoot(options.MountPath);
        var user = settings.Credentials.User;
        var symlinks = options.CompletedEntries == CompletedEntryKind.Symlink;
        var categories = options.EffectiveCategories;

        var sab = new UiSabClient(
            address.Host, address.Port, address.Ssl, address.UrlBase, apiKey,
            [.. categories.Select(c => new UiCategoryFolder(c, options.CompleteDirectory + "/" + c))],
            new UiRemotePathMapping(address.Host, options.CompleteDirectory + "/", "the folder where that directory appears for Sonarr/Radarr",
                $"Needed only when Sonarr/Radarr see the mount at another path than {mountPath}. Either way {mountPath}/.ids/ must be visible at the same path, because the completed entries point there."),
            address.Source);

        var rclone = new UiRclone(
            address.Url, user, PasswordPlaceholder,
            $"rclone config create nzbdav webdav url={Shell(address.Url)} vendor=other user={Shell(user)} pass=\"$(rclone obscure '{PasswordPlaceholder}')\" --no-obscure",
            MountCommand(mountPath, mountOptions, symlinks, " \\\n  "),
            symlinks);

        var compose = new UiCompose(ManagedCompose(mountPath), SidecarCompose(address, user, mountPath, mountOptions, symlinks));

        var volume = $"{mountPath}:{mountPath}:rslave";
        var media = symlinks
            ? new UiMediaServer("Symlink", mountPath, volume, [],
                $"Point the Plex/Jellyfin libraries at Sonarr's and Radarr's root folders (where imports land, e.g. /media/tv and /media/movies). The imported symlinks there point into {mountPath}/.ids/, so the media server must see {mountPath} at that same path.")
            : new UiMediaServer("Strm", mountPath, volume,
                [.. categories.Select(c => new UiLibraryFolder("Jellyfin: " + c, options.CompleteDirectory + "/" + c))],
                "Jellyfin plays a .strm by fetching the address it holds from NzbDav: point a library at a category's .strm folder, or at the root folder Sonarr/Radarr import the .strm files into. Plex does not read .strm files; keep NzbDav:CompletedEntries=Symlink for Plex.");

        return new UiIntegrations(sab, rclone, compose, media, MountView.Of(mount, mountOptions.Enabled, options.MountPath));
    }

    /// <summary>Where the browser reached NzbDav (scheme, host, port, path base), or the configured public URL.</summary>
    internal static ServerAddress AddressOf(HttpRequest request, string? publicUrl)
    {
        if (!string.IsNullOrWhiteSpace(publicUrl) && Uri.TryCreate(publicUrl.Trim(), UriKind.Absolute, out var uri) && (uri.Scheme == Uri.UriSchemeHttp || uri.Scheme == Uri.UriSchemeHttps))
        {
            var path = uri.AbsolutePath.TrimEnd('/');
            return new ServerAddress(uri.Host, uri.Port, uri.Scheme == Uri.UriSchemeHttps, path, uri.GetLeftPart(UriPartial.Authority) + path + "/", "public URL");
        }

        var ssl = request.IsHttps;
        var pathBase = request.PathBase.Value?.TrimEnd('/') ?? "";
        return new ServerAddress(request.Host.Host, request.Host.Port ?? (ssl ? 443 : 80), ssl, pathBase, $"{request.Scheme}://{request.Host.Value}{pathBase}/", "request");
    }

    private static string MountRoot(string mountPath) => mountPath.Length > 1 ? mountPath.TrimEnd('/') : mountPath;

    /// <summary>The mount with the flags docs/rclone-plex-jellyfin.md explains; <paramref name="separator"/> between groups of flags.</summary>
    private static string MountCommand(string mountPath, MountOptions settings, bool links, string separator)
    {
        List<string> lines =
        [
            $"rclone mount nzbdav: {Shell(mountPath)}",
            "--webdav-vendor other",
            .. links ? new[] { "--links" } : [],
            $"--vfs-cache-mode full --vfs-cache-max-size {settings.VfsCacheMaxSize} --vfs-cache-max-age {settings.VfsCacheMaxAge}",
            $"--vfs-read-chunk-size {settings.ReadChunkSize} --vfs-read-chunk-size-limit {settings.ReadChunkSizeLimit}",
            $"--buffer-size {settings.BufferSize}",
            // Nobody tells a mount NzbDav does not run when a folder changed: a short directory cache.
            "--dir-cache-time 10s",
            "--allow-other --uid 1000 --gid 1000 --umask 002",
        ];
        return string.Join(separator, lines);
    }

    private static string ManagedCompose(string mountPath) => $"""
        services:
          nzbdav:
            image: nzbdav:latest
            restart: unless-stopped
            init: true
            stop_grace_period: 30s
            ports:
              - "3000:3000"
            environment:
              PUID: "1000"
              PGID: "1000"
              Mount__Enabled: "true"
              NzbDav__MountPath: {Yaml(mountPath)}
            # FUSE inside the container: the device, the capability, no AppArmor profile blocking mount().
            devices:
              - /dev/fuse:/dev/fuse
            cap_add:
              - SYS_ADMIN
            security_opt:
              - apparmor:unconfined
            volumes:
              - ./config:/config
              # rshared: the mount NzbDav makes inside the container shows on the host, and in every
              # container that binds the same folder with rslave.
              - {Yaml(mountPath + ":" + mountPath + ":rshared")}

          # Sonarr, Radarr, Plex and Jellyfin: the same folder at the same path.
          sonarr:
            image: lscr.io/linuxserver/sonarr:latest
            volumes:
              - {Yaml(mountPath + ":" + mountPath + ":rslave")}

        """;

    private static string SidecarCompose(ServerAddress address, string user, string mountPath, MountOptions settings, bool links)
    {
        // A container cannot reach the browser's localhost: inside compose NzbDav is "nzbdav".
        var local = IsLoopback(address.Host);
        var url = local ? "http://nzbdav:3000/" : address.Url;
        var urlNote = local ? "# The nzbdav service on the compose network (the browser's localhost is not reachable from a container)." : "# The address NzbDav answers at; inside this compose file http://nzbdav:3000/ works too.";
        return $"""
            services:
              nzbdav:
                image: nzbdav:latest
                restart: unless-stopped
                ports:
                  - "3000:3000"
                environment:
                  NzbDav__WebDav__User: {Yaml(user)}
                  # The WebDAV password rclone logs in with.
                  NzbDav__WebDav__Password: "{PasswordPlaceholder}"
                  NzbDav__MountPath: {Yaml(mountPath)}
                volumes:
                  - ./config:/config

              rclone:
                image: rclone/rclone:latest
                restart: unless-stopped
                # rclone mounts once NzbDav answers /health.
                depends_on:
                  nzbdav:
                    condition: service_healthy
                devices:
                  - /dev/fuse:/dev/fuse
                cap_add:
                  - SYS_ADMIN
                security_opt:
                  - apparmor:unconfined
                environment:
                  RCLONE_CONFIG_NZBDAV_TYPE: webdav
                  {urlNote}
                  RCLONE_CONFIG_NZBDAV_URL: {Yaml(url)}
                  RCLONE_CONFIG_NZBDAV_VENDOR: other
                  RCLONE_CONFIG_NZBDAV_USER: {Yaml(user)}
                  # The output of: rclone obscure '{PasswordPlaceholder}'
                  RCLONE_CONFIG_NZBDAV_PASS: "<obscured WebDAV password>"
                volumes:
                  - {Yaml(mountPath + ":" + mountPath + ":rshared")}
                  - ./rclone-cache:/root/.cache/rclone
                command: >-
                  {MountCommand(mountPath, settings, links, "\n      ")["rclone ".Length..]}

            """;
    }

    private static bool IsLoopback(string host) =>
        host.Equals("localhost", StringComparison.OrdinalIgnoreCase) || (IPAddress.TryParse(host.Trim('[', ']'), out var ip) && IPAddress.IsLoopback(ip));

    /// <summary>A shell word: as it is when it holds nothing the shell would read, else in single quotes.</summary>
    internal static string Shell(string word) =>
        word.Length > 0 && word.All(static c => char.IsAsciiLetterOrDigit(c) || c is '/' or '.' or '_' or '-' or ':' or '=' or '@' or '%' or '+' or ',')
            ? word
            : "'" + word.Replace("'", "'\\''", StringComparison.Ordinal) + "'";

    /// <summary>A YAML scalar: a plain path or URL as it is, anything else double-quoted (so "yes" or "1000" stays a string).</summary>
    private static string Yaml(string value) =>
        (value.StartsWith('/') || value.StartsWith("http", StringComparison.Ordinal))
        && value.All(static c => char.IsAsciiLetterOrDigit(c) || c is '/' or '.' or '_' or '-' or ':') && !value.EndsWith(':')
            ? value
            : "\"" + value.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal) + "\"";

    internal sealed record ServerAddress(string Host, int Port, bool Ssl, string UrlBase, string Url, string Source);
}

/// <summary>Settings → Integrations: what to enter in Sonarr/Radarr, rclone, docker-compose and Plex/Jellyfin, and the managed mount's state.</summary>
public sealed record UiIntegrations(UiSabClient Sab, UiRclone Rclone, UiCompose Compose, UiMediaServer MediaServer, MountView Mount);

/// <summary>
/// Sonarr/Radarr → Download Clients → SABnzbd. Host, port, SSL and URL base as the browser reached
/// NzbDav (<see cref="Source"/> "request"), or from NzbDav:WebDav:PublicUrl ("public URL").
/// </summary>
public sealed record UiSabClient(
    string Host, int Port, bool UseSsl, string UrlBase, string ApiKey, IReadOnlyList<UiCategoryFolder> Categories, UiRemotePathMapping RemotePathMapping, string Source);

/// <summary>A category and the completed folder Sonarr/Radarr will see its jobs in.</summary>
public sealed record UiCategoryFolder(string Category, string CompletedFolder);

/// <summary>Sonarr/Radarr → Download Clients → Remote Path Mappings: needed only when they see the mount at another path.</summary>
public sealed record UiRemotePathMapping(string Host, string RemotePath, string LocalPath, string Note);

/// <summary>The rclone remote (the password is not known in clear: <see cref="PasswordPlaceholder"/> stands in for it) and the mount command.</summary>
public sealed record UiRclone(string Url, string User, string PasswordPlaceholder, string ConfigCommand, string MountCommand, bool Links);

/// <summary>docker-compose: NzbDav with its managed mount, or NzbDav with an rclone sidecar.</summary>
public sealed record UiCompose(string Managed, string Sidecar);

/// <summary>Plex/Jellyfin: the mount at the same path (<see cref="Volume"/>), and with .strm entries the folders to give Jellyfin.</summary>
public sealed record UiMediaServer(string CompletedEntries, string MountPath, string Volume, IReadOnlyList<UiLibraryFolder> Libraries, string Note);

public sealed record UiLibraryFolder(string Label, string Path);

/// <summary>What the mount check found: each check, ok or not, in one sentence.</summary>
public sealed record UiMountCheckResult(string MountPath, bool Ok, IReadOnlyList<UiMountCheck> Checks);

public sealed record UiMountCheck(string Name, bool Ok, string Detail);

# syntax=docker/dockerfile:1
# Build: docker build -t nzbdav:latest .
# Both architectures: docker buildx build --platform linux/amd64,linux/arm64 -t nzbdav:latest .
# Run: docker-compose.yml (NzbDav with its own rclone mount); docs/deployment.md explains every step.

# rclone for the managed mount (Mount:Enabled). Debian's and Ubuntu's packages are 1.60, which shows
# the completed folder's symlinks as .rclonelink files; symlinks in a mount (--links) need 1.69 or
# later. The official image's binary is static and built for each architecture.
ARG RCLONE_VERSION=1.71.0
FROM rclone/rclone:${RCLONE_VERSION} AS rclone

# The web UI: built once, on the build machine, for every architecture (plain JavaScript and CSS).
FROM --platform=$BUILDPLATFORM node:20-bookworm-slim AS ui
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

# The server, cross-compiled on the build machine for TARGETARCH (set by buildx: amd64 or arm64).
FROM --platform=$BUILDPLATFORM mcr.microsoft.com/dotnet/sdk:10.0 AS build
WORKDIR /src
# .editorconfig and BannedSymbols.txt: the image is built under the same analyzer rules as CI.
# Directory.Build.targets: the libraries are built once, not once per target processor.
COPY global.json Directory.Build.props Directory.Build.targets Directory.Packages.props .editorconfig BannedSymbols.txt ./
COPY backend/src/ backend/src/
COPY tools/ tools/
# The SDK image has no Node.js: the server's build copies this ready-made UI beside the server.
COPY --from=ui /src/frontend/dist frontend/dist/
ARG TARGETARCH=amd64
# The same script the test suite runs for both architectures (Deployment/PublishScriptTests.cs):
# ReadyToRun, framework-dependent, for linux-x64 or linux-arm64.
RUN bash tools/publish.sh "$TARGETARCH" /app

FROM mcr.microsoft.com/dotnet/aspnet:10.0
# fuse3: fusermount3, with which rclone mounts as the unprivileged user, and user_allow_other so the
# mount can be opened by other users (--allow-other: Sonarr, Plex). tzdata: TZ. setpriv, which the
# entry point switches users with, is part of util-linux in the base image.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends fuse3 tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && sed -i 's/^#[[:space:]]*user_allow_other/user_allow_other/' /etc/fuse.conf \
 && (grep -q '^user_allow_other' /etc/fuse.conf || echo user_allow_other >> /etc/fuse.conf) \
 && command -v setpriv fusermount3
COPY --from=rclone /usr/local/bin/rclone /usr/local/bin/rclone
RUN rclone version
COPY --chmod=0755 docker/entrypoint.sh /usr/local/bin/nzbdav-entrypoint
WORKDIR /app
COPY --from=build /app ./
# The disk segment cache on by default under /config (10 GiB): a file the server reads at start, below
# settings.json and the web UI, so the Settings page can move, resize or turn it off.
COPY docker/appsettings.Production.json ./appsettings.Production.json

# /config is the only state: settings.json, the SQLite database, logs, the web UI's keys (HOME) and
# the managed mount's cache (Mount:CacheDirectory, default /config/rclone-cache).
# PUID/PGID: who the server runs as; UMASK: its file mode mask; TZ: log times. Mount:Enabled and
# NzbDav:MountPath are not set here (an environment value locks a setting in the web UI and
# settings.json): the server's defaults apply (off, /mnt/nzbdav) and docker-compose.yml turns the
# mount on.
ENV ASPNETCORE_URLS=http://0.0.0.0:3000 \
    NzbDav__DataDirectory=/config \
    PUID=1000 \
    PGID=1000 \
    UMASK=002 \
    TZ=Etc/UTC
VOLUME /config
EXPOSE 3000
# The base image has no curl: the server binary checks its own /health.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["dotnet", "/app/NzbDav.dll", "--healthcheck", "http://127.0.0.1:3000/health"]
# Starts as root only to prepare /config and the mount directory, then runs as PUID:PGID.
ENTRYPOINT ["nzbdav-entrypoint"]
CMD ["dotnet", "/app/NzbDav.dll"]

# Build: docker build -t nzbdav .
# The web UI: built once here, for every architecture (it is plain JavaScript and CSS).
FROM node:20-bookworm-slim AS ui
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
WORKDIR /src
# .editorconfig and BannedSymbols.txt: the image is built under the same analyzer rules as CI.
COPY global.json Directory.Build.props Directory.Packages.props NzbDav.sln .editorconfig BannedSymbols.txt ./
COPY backend/ backend/
COPY tools/ tools/
# The SDK image has no Node.js: the server's build copies this ready-made UI beside the server.
COPY --from=ui /src/frontend/dist frontend/dist/
# ReadyToRun: the code is compiled ahead of time, so the first playback and the first seek after a
# start do not wait for the JIT. TARGETARCH is set by buildx (amd64 or arm64).
ARG TARGETARCH=amd64
RUN rid="linux-$([ "$TARGETARCH" = "arm64" ] && echo arm64 || echo x64)" && \
    dotnet publish backend/src/NzbDav/NzbDav.csproj -c Release -r "$rid" --no-self-contained \
      -p:PublishReadyToRun=true -o /app

FROM mcr.microsoft.com/dotnet/aspnet:10.0
WORKDIR /app
COPY --from=build /app ./
# Configuration and the SQLite database live on a volume so upgrades keep them.
VOLUME /config
ENV ASPNETCORE_URLS=http://0.0.0.0:3000 \
    NzbDav__DataDirectory=/config
EXPOSE 3000
# The aspnet image has no curl: the server binary checks its own /health.
HEALTHCHECK --interval=30s --timeout=5s CMD ["dotnet", "NzbDav.dll", "--healthcheck", "http://127.0.0.1:3000/health"]
ENTRYPOINT ["dotnet", "NzbDav.dll"]

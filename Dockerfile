# Build: docker build -t nzbdav .
FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
WORKDIR /src
COPY global.json Directory.Build.props Directory.Packages.props NzbDav.sln ./
COPY backend/ backend/
COPY tools/ tools/
RUN dotnet publish backend/src/NzbDav.Server/NzbDav.Server.csproj -c Release -o /app --no-self-contained

FROM mcr.microsoft.com/dotnet/aspnet:10.0
WORKDIR /app
COPY --from=build /app ./
# Configuration and the SQLite database live on a volume so upgrades keep them.
VOLUME /config
ENV ASPNETCORE_URLS=http://0.0.0.0:3000 \
    NzbDav__DataDirectory=/config
EXPOSE 3000
# The aspnet image has no curl: the server binary checks its own /health.
HEALTHCHECK --interval=30s --timeout=5s CMD ["dotnet", "NzbDav.Server.dll", "--healthcheck", "http://127.0.0.1:3000/health"]
ENTRYPOINT ["dotnet", "NzbDav.Server.dll"]

using System.Net.Sockets;
using Npgsql;
using NzbDav.Data;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.Hosting;

/// <summary>
/// A node started while its PostgreSQL server cannot be reached waits for it rather than exit: until
/// the store answers, a small stand-in on the node's own addresses answers <c>/health</c> (degraded,
/// naming the store and the error), <c>/ready</c> 503 and everything else 503 with Retry-After, and
/// the log says what is wrong once, then every minute. Once the store answers, the stand-in stops and
/// the node starts as usual. A store that answers with a refusal (a wrong password, no such database)
/// is not waited for: the start stops with that error, as before.
/// </summary>
internal static class StoreWait
{
    private static readonly TimeSpan Retry = TimeSpan.FromSeconds(2);
    private static readonly TimeSpan LogEvery = TimeSpan.FromMinutes(1);

    /// <summary>Returns once the store (if PostgreSQL) can be reached, or is there and refuses; false when stopped (Ctrl+C, SIGTERM) while waiting.</summary>
    public static async Task<bool> WaitAsync(string[] args, TimeProvider time, CancellationToken cancellationToken)
    {
        var builder = WebApplication.CreateBuilder(["--hostBuilder:reloadConfigOnChange=false", .. args]);
        var dataDirectory = (builder.Configuration.GetSection(NzbDavOptions.SectionName).Get<NzbDavOptions>() ?? new NzbDavOptions()).DataDirectory;
        LibraryStore store;
        try
        {
            store = LibraryStore.Resolve(dataDirectory, builder.Configuration.GetSection(DatabaseOptions.SectionName).Get<DatabaseOptions>());
        }
        catch (InvalidOperationException)
        {
            // The real start says what is wrong with the settings.
            return true;
        }

        if (store.Provider != StoreProvider.Postgres || await ProbeAsync(store, cancellationToken) is not { } first)
            return true;

        var since = time.GetUtcNow();
        var reason = first;
        var node = builder.Configuration["Cluster:NodeName"] is { Length: > 0 } name ? name.Trim() : Environment.MachineName;
        await Console.Error.WriteLineAsync($"NzbDav waits for its library store ({store.Description}): {reason}; /ready answers 503 until it is back");
        builder.Logging.ClearProviders();
        var app = builder.Build();
        var state = new Cluster.StoreState(false, "unreachable", store.Description, since, $"the library store ({store.Description}) cannot be reached since {since:u}: {reason}");
        app.MapGet("/health", () => Results.Ok(new HealthResponse("degraded", Store: Volatile.Read(ref state))));
        app.MapGet("/ready", () => Results.Json(new ReadyResponse("not ready", node, Volatile.Read(ref state).Reason), statusCode: StatusCodes.Status503ServiceUnavailable));
        app.MapFallback((HttpContext context) =>
        {
            context.Response.Headers.RetryAfter = "5";
            return Results.Json(new { error = Volatile.Read(ref state).Reason }, statusCode: StatusCodes.Status503ServiceUnavailable);
        });
        await app.StartAsync(cancellationToken);
        try
        {
            var logged = time.GetTimestamp();
            while (true)
            {
                await Task.Delay(Retry, time, cancellationToken);
                if (await ProbeAsync(store, cancellationToken) is not { } still)
                {
                    await Console.Error.WriteLineAsync($"NzbDav reaches its library store ({store.Description}) again after {(time.GetUtcNow() - since).TotalSeconds:F0} s; starting");
                    return true;
                }

                Volatile.Write(ref state, state with { Reason = $"the library store ({store.Description}) cannot be reached since {since:u}: {still}" });
                if (time.GetElapsedTime(logged) >= LogEvery)
                {
                    logged = time.GetTimestamp();
                    await Console.Error.WriteLineAsync($"NzbDav still waits for its library store ({store.Description}): {still}");
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return false;
        }
        finally
        {
            await app.StopAsync(CancellationToken.None);
            await app.DisposeAsync();
        }
    }

    /// <summary>Null when the store answers (or answers with a refusal the real start reports); else why it cannot be reached.</summary>
    private static async Task<string?> ProbeAsync(LibraryStore store, CancellationToken cancellationToken)
    {
        var builder = new NpgsqlConnectionStringBuilder(store.ConnectionString) { Pooling = false, Timeout = 5 };
        try
        {
            await using var connection = new NpgsqlConnection(builder.ConnectionString);
            await connection.OpenAsync(cancellationToken);
            return null;
        }
        catch (PostgresException ex) when (ex.SqlState is not ("57P03" or "53300" or "57P01"))
        {
            // It answered and refused (password, database, permissions): not something waiting fixes.
            return null;
        }
        catch (Exception ex) when (ex is NpgsqlException or SocketException or TimeoutException or IOException)
        {
            return ex.InnerException is SocketException socket ? $"{ex.Message} ({socket.SocketErrorCode})" : ex.Message;
        }
    }
}

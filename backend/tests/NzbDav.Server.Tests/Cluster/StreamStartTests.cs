using System.Data.Common;
using System.Net;
using Microsoft.AspNetCore.Http;
using Microsoft.EntityFrameworkCore.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;
using NzbDav.Testing.Postgres;

namespace NzbDav.Server.Tests.Cluster;

/// <summary>
/// What a stream start asks of the library store: the commands run for WebDAV GETs, counted on both
/// stores. A node on PostgreSQL pays a network round trip for each, so it must not run more than on SQLite.
/// </summary>
public sealed class StreamStartTests(MockProviderFixture provider)
{
    [Fact]
    public async Task A_stream_start_on_postgres_runs_no_more_store_commands_than_on_sqlite()
    {
        var ct = TestContext.Current.CancellationToken;
        var content = new byte[1_000_000];
        new Random(3404).NextBytes(content);
        var file = provider.Store.AddFile("Started.Show.S01E01.mkv", content, 100_000);
        var nzb = provider.Nzb("Started.Show.S01E01", file);
        await using var database = await PostgresDatabase.CreateAsync(ct);

        var sqlite = await MeasureAsync(nzb, content, [], ct);
        var postgres = await MeasureAsync(nzb, content, [.. database.HostArguments()], ct);
        TestContext.Current.TestOutputHelper?.WriteLine(
            $"store commands per GET: first open SQLite {sqlite.First}, PostgreSQL {postgres.First}; later opens (mean of {Opens}) SQLite {sqlite.Later:F2}, PostgreSQL {postgres.Later:F2}");
        Assert.True(sqlite.First >= 1, "the counter saw no command: it is not attached");
        Assert.True(postgres.First <= sqlite.First, $"{postgres.First} > {sqlite.First}");
        Assert.True(postgres.Later <= sqlite.Later, $"{postgres.Later} > {sqlite.Later}");
        Assert.True(postgres.Later <= 1, $"a stream start ran {postgres.Later:F2} store commands");
    }

    private const int Opens = 20;

    private async Task<(int First, double Later)> MeasureAsync(byte[] nzb, byte[] content, string[] store, CancellationToken ct)
    {
        using var data = new TempDirectory();
        var counter = new CommandCounter();
        await using var host = await IngestionHost.StartAsync(data.Path, provider.Port, services =>
        {
            services.AddHttpContextAccessor();
            services.AddSingleton<IInterceptor>(sp => counter.Attach(sp.GetRequiredService<IHttpContextAccessor>()));
        }, ct, store);
        await host.AddAndWaitAsync(nzb, "Started.Show.S01E01.nzb", ct);

        async Task<int> OpenAsync(long from)
        {
            var before = counter.Count;
            using var response = await host.GetAsync("Started.Show.S01E01", "Started.Show.S01E01.mkv", ct, $"bytes={from}-{from + 9_999}");
            Assert.Equal(HttpStatusCode.PartialContent, response.StatusCode);
            Assert.Equal(content.AsSpan((int)from, 10_000).ToArray(), await response.Content.ReadAsByteArrayAsync(ct));
            return counter.Count - before;
        }

        var first = await OpenAsync(0);
        var later = 0;
        for (var i = 1; i <= Opens; i++)
            later += await OpenAsync(i * 40_000);
        return (first, (double)later / Opens);
    }

    /// <summary>Counts the commands run while a WebDAV request under /content is being served.</summary>
    private sealed class CommandCounter : DbCommandInterceptor
    {
        private IHttpContextAccessor? _http;
        private int _count;

        public int Count => Volatile.Read(ref _count);

        public CommandCounter Attach(IHttpContextAccessor http)
        {
            _http = http;
            return this;
        }

        public override ValueTask<InterceptionResult<DbDataReader>> ReaderExecutingAsync(DbCommand command, CommandEventData eventData, InterceptionResult<DbDataReader> result, CancellationToken cancellationToken = default)
        {
            Tally();
            return base.ReaderExecutingAsync(command, eventData, result, cancellationToken);
        }

        public override InterceptionResult<DbDataReader> ReaderExecuting(DbCommand command, CommandEventData eventData, InterceptionResult<DbDataReader> result)
        {
            Tally();
            return base.ReaderExecuting(command, eventData, result);
        }

        public override ValueTask<InterceptionResult<object>> ScalarExecutingAsync(DbCommand command, CommandEventData eventData, InterceptionResult<object> result, CancellationToken cancellationToken = default)
        {
            Tally();
            return base.ScalarExecutingAsync(command, eventData, result, cancellationToken);
        }

        public override ValueTask<InterceptionResult<int>> NonQueryExecutingAsync(DbCommand command, CommandEventData eventData, InterceptionResult<int> result, CancellationToken cancellationToken = default)
        {
            Tally();
            return base.NonQueryExecutingAsync(command, eventData, result, cancellationToken);
        }

        private void Tally()
        {
            if (_http?.HttpContext?.Request.Path.StartsWithSegments("/content") == true)
                Interlocked.Increment(ref _count);
        }
    }
}

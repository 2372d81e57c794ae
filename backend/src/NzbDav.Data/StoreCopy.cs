using System.Buffers.Binary;
using System.Data.Common;
using System.Diagnostics;
using System.Globalization;
using System.IO.Hashing;
using System.Text;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata;
using Microsoft.Extensions.DependencyInjection;
using Npgsql;

namespace NzbDav.Data;

/// <summary>One table copied: its rows and the checksum both stores gave for them.</summary>
public sealed record StoreCopyTable(string Table, long Rows, string Checksum);

/// <summary>What <see cref="StoreCopy.SqliteToPostgresAsync"/> did.</summary>
public sealed record StoreCopyReport(IReadOnlyList<StoreCopyTable> Tables, TimeSpan Elapsed);

/// <summary>
/// Copies a SQLite library into an empty PostgreSQL database (<c>NzbDav --migrate-to-postgres</c>):
/// the target's schema is made by its own migrations, every table is copied with PostgreSQL's binary
/// COPY in one transaction (a failure leaves the target as empty as it was), then each table is read
/// back from both stores and compared, row count and checksum. The SQLite file is only ever opened
/// read-only.
/// </summary>
/// <remarks>
/// The checksum of a table is the sum (mod 2^128) of the XXH128 of each row's values in a canonical
/// form, so it does not depend on the order either store returns rows in. Times are taken to the
/// microsecond on both sides: PostgreSQL keeps no finer, and SQLite's extra digits are all the copy
/// drops.
/// </remarks>
public static class StoreCopy
{
    /// <exception cref="InvalidOperationException">The source is missing, not at this version's schema, or the target already holds a library; or the copy did not verify.</exception>
    public static async Task<StoreCopyReport> SqliteToPostgresAsync(LibraryStore source, LibraryStore target, Action<string> progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(target);
        ArgumentNullException.ThrowIfNull(progress);
        if (source.Provider != StoreProvider.Sqlite || target.Provider != StoreProvider.Postgres)
            throw new ArgumentException("The copy goes from SQLite to PostgreSQL.", nameof(target));
        if (!File.Exists(source.SqlitePath))
            throw new InvalidOperationException($"There is no library at {source.SqlitePath}: set NzbDav:DataDirectory to the data directory that holds {DataServiceCollectionExtensions.DatabaseFileName}.");

        var started = Stopwatch.GetTimestamp();
        var services = new ServiceCollection().AddNzbDavData(target).BuildServiceProvider();
        await using var servicesLifetime = services.ConfigureAwait(false);
        var factory = services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        var sqlite = (SqliteConnection)source.CreateConnection(readOnly: true);
        await using var sqliteLifetime = sqlite.ConfigureAwait(false);
        await sqlite.OpenAsync(cancellationToken).ConfigureAwait(false);
        await RefuseOutdatedSourceAsync(sqlite, cancellationToken).ConfigureAwait(false);

        progress($"Making the schema in the {target.Description}");
        await NzbDavDatabase.MigrateAsync(factory, cancellationToken).ConfigureAwait(false);
        var context = await factory.CreateDbContextAsync(cancellationToken).ConfigureAwait(false);
        await using var contextLifetime = context.ConfigureAwait(false);
        var tables = Tables(context.Model);
        var postgres = new NpgsqlConnection(target.ConnectionString);
        await using var postgresLifetime = postgres.ConfigureAwait(false);
        await postgres.OpenAsync(cancellationToken).ConfigureAwait(false);
        foreach (var table in tables)
        {
            var rows = await CountAsync(postgres, table.Name, cancellationToken).ConfigureAwait(false);
            if (rows > 0)
                throw new InvalidOperationException($"The {target.Description} already holds a library ({rows} rows in {table.Name}): migrate into an empty database.");
        }

        // The whole library is in one commit: flushed before it is reported copied, whatever the
        // server's default (and the vacuum below can only mark pages of a flushed commit visible).
        var durable = new NpgsqlCommand("SET synchronous_commit = on", postgres);
        await using (durable.ConfigureAwait(false))
            await durable.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
        var transaction = await postgres.BeginTransactionAsync(cancellationToken).ConfigureAwait(false);
        await using (transaction.ConfigureAwait(false))
        {
            foreach (var table in tables)
            {
                var copied = await CopyAsync(sqlite, postgres, table, cancellationToken).ConfigureAwait(false);
                progress($"Copied {table.Name}: {copied:N0} rows");
            }

            foreach (var table in tables)
            {
                foreach (var column in table.Columns.Where(c => c.Identity))
                {
                    // Rows keep their ids; the next row PostgreSQL numbers must come after them.
                    var bump = new NpgsqlCommand(
                        $"SELECT setval(pg_get_serial_sequence('\"{table.Name}\"', '{column.Name}'), COALESCE(MAX(\"{column.Name}\"), 0) + 1, false) FROM \"{table.Name}\"",
                        postgres, transaction);
                    await using var bumpLifetime = bump.ConfigureAwait(false);
                    await bump.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false);
                }
            }

            await transaction.CommitAsync(cancellationToken).ConfigureAwait(false);
        }

        // Tables just filled have no statistics and no visibility map until autovacuum comes by
        // (minutes later): until then the planner guesses, and an index-only scan still reads the
        // table. The 10,000-child folder listing took 100 ms instead of 35 at 100,000 jobs.
        foreach (var table in tables)
        {
            var vacuum = new NpgsqlCommand($"VACUUM (ANALYZE) \"{table.Name}\"", postgres);
            await using var vacuumLifetime = vacuum.ConfigureAwait(false);
            await vacuum.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
        }

        progress("Vacuumed and analyzed every table");
        var report = await VerifyAsync(sqlite, postgres, tables, progress, cancellationToken).ConfigureAwait(false);
        return new StoreCopyReport(report, Stopwatch.GetElapsedTime(started));
    }

    /// <summary>Compares every table of the two stores, row count and checksum; answers them when all agree.</summary>
    /// <exception cref="InvalidOperationException">A table differs (named, with both counts and checksums).</exception>
    public static async Task<IReadOnlyList<StoreCopyTable>> VerifyAsync(LibraryStore source, LibraryStore target, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(target);
        var sqlite = (SqliteConnection)source.CreateConnection(readOnly: true);
        await using var sqliteLifetime = sqlite.ConfigureAwait(false);
        await sqlite.OpenAsync(cancellationToken).ConfigureAwait(false);
        var postgres = new NpgsqlConnection(target.ConnectionString);
        await using var postgresLifetime = postgres.ConfigureAwait(false);
        await postgres.OpenAsync(cancellationToken).ConfigureAwait(false);
        var options = new DbContextOptionsBuilder<NzbDavDbContext>().UseNpgsql(target.ConnectionString).Options;
        var context = new NzbDavDbContext(options);
        await using var contextLifetime = context.ConfigureAwait(false);
        return await VerifyAsync(sqlite, postgres, Tables(context.Model), static _ => { }, cancellationToken).ConfigureAwait(false);
    }

    private static async Task<IReadOnlyList<StoreCopyTable>> VerifyAsync(
        SqliteConnection sqlite, NpgsqlConnection postgres, IReadOnlyList<Table> tables, Action<string> progress, CancellationToken cancellationToken)
    {
        var report = new List<StoreCopyTable>();
        foreach (var table in tables)
        {
            var from = await ChecksumAsync(sqlite, table, cancellationToken).ConfigureAwait(false);
            var to = await ChecksumAsync(postgres, table, cancellationToken).ConfigureAwait(false);
            if (from != to)
            {
                throw new InvalidOperationException(
                    $"{table.Name} did not copy true: SQLite has {from.Rows} rows (checksum {from.Hex}), PostgreSQL {to.Rows} (checksum {to.Hex}). The SQLite library is unchanged; empty the PostgreSQL database and run the migration again.");
            }

            report.Add(new StoreCopyTable(table.Name, from.Rows, from.Hex));
            progress($"Verified {table.Name}: {from.Rows:N0} rows, checksum {from.Hex}");
        }

        return report;
    }

    /// <summary>A SQLite library a version behind would need migrating, which is a write: the server upgrades it at its next start.</summary>
    private static async Task RefuseOutdatedSourceAsync(SqliteConnection sqlite, CancellationToken cancellationToken)
    {
        var known = new DbContextOptionsBuilder<NzbDavDbContext>().UseSqlite(sqlite.ConnectionString, o => o.MigrationsAssembly(DataAssembly.Name)).Options;
        var context = new NzbDavDbContext(known);
        await using var contextLifetime = context.ConfigureAwait(false);
        var migrations = context.Database.GetMigrations().ToList();
        var applied = new List<string>();
        var command = sqlite.CreateCommand();
        await using (command.ConfigureAwait(false))
        {
            command.CommandText = "SELECT \"MigrationId\" FROM \"__EFMigrationsHistory\" ORDER BY \"MigrationId\"";
            try
            {
                var reader = await command.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
                await using var readerLifetime = reader.ConfigureAwait(false);
                while (await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
                    applied.Add(reader.GetString(0));
            }
            catch (SqliteException error)
            {
                throw new InvalidOperationException($"{sqlite.DataSource} is not an NzbDav library: {error.Message}", error);
            }
        }

        if (!applied.SequenceEqual(migrations, StringComparer.Ordinal))
        {
            throw new InvalidOperationException(
                $"The SQLite library is at schema {applied.LastOrDefault() ?? "none"}, this version's is {migrations[^1]}: start this version of NzbDav on it once (it upgrades the library), stop it, then migrate.");
        }
    }

    private sealed record Column(string Name, Type Type, string StoreType, bool Identity);

    private sealed record Table(string Name, IReadOnlyList<Column> Columns);

    /// <summary>Every table of the model with its columns, parents before children (foreign keys point backwards).</summary>
    private static List<Table> Tables(IModel model)
    {
        var entities = model.GetEntityTypes().Where(e => e.GetTableName() is not null).ToList();
        var ordered = new List<IEntityType>();
        while (ordered.Count < entities.Count)
        {
            var ready = entities.Where(e => !ordered.Contains(e)
                && e.GetForeignKeys().All(fk => fk.PrincipalEntityType == e || ordered.Contains(fk.PrincipalEntityType))).OrderBy(e => e.GetTableName(), StringComparer.Ordinal).ToList();
            if (ready.Count == 0)
                throw new InvalidOperationException("The model's foreign keys form a cycle.");
            ordered.AddRange(ready);
        }

        return [.. ordered.Select(e =>
        {
            var table = StoreObjectIdentifier.Table(e.GetTableName()!, e.GetSchema());
            return new Table(e.GetTableName()!, [.. e.GetProperties().Select(p => new Column(
                p.GetColumnName(table)!,
                Nullable.GetUnderlyingType(p.ClrType) ?? p.ClrType,
                p.GetColumnType(),
                p.ValueGenerated == ValueGenerated.OnAdd && p.IsPrimaryKey() && (p.ClrType == typeof(long) || p.ClrType == typeof(int))))]);
        })];
    }

    private static async Task<long> CountAsync(NpgsqlConnection connection, string table, CancellationToken cancellationToken)
    {
        var command = new NpgsqlCommand($"SELECT COUNT(*) FROM \"{table}\"", connection);
        await using var commandLifetime = command.ConfigureAwait(false);
        return Convert.ToInt64(await command.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false), CultureInfo.InvariantCulture);
    }

    private static string SelectAll(Table table) =>
        "SELECT " + string.Join(", ", table.Columns.Select(c => "\"" + c.Name + "\"")) + " FROM \"" + table.Name + "\"";

    private static async Task<long> CopyAsync(SqliteConnection sqlite, NpgsqlConnection postgres, Table table, CancellationToken cancellationToken)
    {
        var read = sqlite.CreateCommand();
        await using var readLifetime = read.ConfigureAwait(false);
        read.CommandText = SelectAll(table);
        var reader = await read.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
        await using var readerLifetime = reader.ConfigureAwait(false);
        var copy = $"COPY \"{table.Name}\" (" + string.Join(", ", table.Columns.Select(c => "\"" + c.Name + "\"")) + ") FROM STDIN (FORMAT BINARY)";
        var writer = await postgres.BeginBinaryImportAsync(copy, cancellationToken).ConfigureAwait(false);
        await using var writerLifetime = writer.ConfigureAwait(false);
        long rows = 0;
        while (await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
        {
            await writer.StartRowAsync(cancellationToken).ConfigureAwait(false);
            for (var i = 0; i < table.Columns.Count; i++)
            {
                var value = FromSqlite(reader, i, table.Columns[i].Type);
                if (value is null)
                    await writer.WriteNullAsync(cancellationToken).ConfigureAwait(false);
                else
                    await writer.WriteAsync(value, table.Columns[i].StoreType, cancellationToken).ConfigureAwait(false);
            }

            rows++;
        }

        await writer.CompleteAsync(cancellationToken).ConfigureAwait(false);
        return rows;
    }

    /// <summary>A SQLite value in the CLR form PostgreSQL's column takes (EF stores GUIDs and times as text there, booleans as integers).</summary>
    private static object? FromSqlite(DbDataReader reader, int ordinal, Type type)
    {
        if (reader.IsDBNull(ordinal))
            return null;
        if (type == typeof(Guid))
            return Guid.Parse(reader.GetString(ordinal));
        if (type == typeof(DateTime))
            return TruncateToMicroseconds(DateTime.Parse(reader.GetString(ordinal), CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal));
        if (type == typeof(bool))
            return reader.GetInt64(ordinal) != 0;
        if (type == typeof(long))
            return reader.GetInt64(ordinal);
        if (type == typeof(int) || type.IsEnum)
            return checked((int)reader.GetInt64(ordinal));
        if (type == typeof(string))
            return reader.GetString(ordinal);
        if (type == typeof(byte[]))
            return reader.GetFieldValue<byte[]>(ordinal);
        throw new NotSupportedException($"No copy for a column of type {type.Name}: teach StoreCopy the new type.");
    }

    private static DateTime TruncateToMicroseconds(DateTime value) =>
        new(value.Ticks - (value.Ticks % 10), DateTimeKind.Utc);

    private readonly record struct Sum(long Rows, UInt128 Total)
    {
        public string Hex => Total.ToString("x32", CultureInfo.InvariantCulture);
    }

    private static async Task<Sum> ChecksumAsync(DbConnection connection, Table table, CancellationToken cancellationToken)
    {
        var command = connection.CreateCommand();
        await using var commandLifetime = command.ConfigureAwait(false);
        command.CommandText = SelectAll(table);
        var reader = await command.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
        await using var readerLifetime = reader.ConfigureAwait(false);
        var postgres = connection is NpgsqlConnection;
        var row = new ArrayBufferWriter();
        long rows = 0;
        UInt128 total = 0;
        while (await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
        {
            row.Clear();
            for (var i = 0; i < table.Columns.Count; i++)
            {
                var value = postgres ? FromPostgres(reader, i, table.Columns[i].Type) : FromSqlite(reader, i, table.Columns[i].Type);
                Canonical(row, value);
            }

            total += XxHash128.HashToUInt128(row.Written);
            rows++;
        }

        return new Sum(rows, total);
    }

    private static object? FromPostgres(DbDataReader reader, int ordinal, Type type)
    {
        if (reader.IsDBNull(ordinal))
            return null;
        if (type == typeof(DateTime))
            return DateTime.SpecifyKind(reader.GetDateTime(ordinal), DateTimeKind.Utc);
        if (type.IsEnum)
            return reader.GetInt32(ordinal);
        return reader.GetValue(ordinal);
    }

    /// <summary>A value as tagged bytes: the same value gives the same bytes whichever store it came from.</summary>
    private static void Canonical(ArrayBufferWriter row, object? value)
    {
        switch (value)
        {
            case null:
                row.Byte(0);
                break;
            case Guid guid:
                row.Byte(1);
                guid.TryWriteBytes(row.Take(16));
                break;
            case DateTime time:
                row.Byte(2);
                BinaryPrimitives.WriteInt64LittleEndian(row.Take(8), time.Ticks);
                break;
            case bool flag:
                row.Byte(flag ? (byte)4 : (byte)3);
                break;
            case long or int:
                row.Byte(5);
                BinaryPrimitives.WriteInt64LittleEndian(row.Take(8), Convert.ToInt64(value, CultureInfo.InvariantCulture));
                break;
            case string text:
                row.Byte(6);
                var length = Encoding.UTF8.GetByteCount(text);
                BinaryPrimitives.WriteInt32LittleEndian(row.Take(4), length);
                Encoding.UTF8.GetBytes(text, row.Take(length));
                break;
            case byte[] bytes:
                row.Byte(7);
                BinaryPrimitives.WriteInt32LittleEndian(row.Take(4), bytes.Length);
                bytes.CopyTo(row.Take(bytes.Length));
                break;
            default:
                throw new NotSupportedException($"No checksum for a value of type {value.GetType().Name}.");
        }
    }

    /// <summary>A growable byte buffer for one row at a time.</summary>
    private sealed class ArrayBufferWriter
    {
        private byte[] _buffer = new byte[4096];
        private int _length;

        public ReadOnlySpan<byte> Written => _buffer.AsSpan(0, _length);

        public void Clear() => _length = 0;

        public void Byte(byte value) => Take(1)[0] = value;

        public Span<byte> Take(int count)
        {
            if (_length + count > _buffer.Length)
                Array.Resize(ref _buffer, Math.Max(_buffer.Length * 2, _length + count));
            var span = _buffer.AsSpan(_length, count);
            _length += count;
            return span;
        }
    }
}

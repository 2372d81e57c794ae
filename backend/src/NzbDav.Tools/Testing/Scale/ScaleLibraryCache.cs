using System.Globalization;
using System.Reflection;
using System.Text.Json;
using Microsoft.EntityFrameworkCore.Migrations;
using NzbDav.Data;

namespace NzbDav.Tools.Testing.Scale;

/// <summary>
/// Keeps generated libraries for <c>--library-cache=DIR</c>: a library of 100,000 jobs takes
/// minutes to generate and seconds to copy, so iterating on the server measures the same library
/// again without making it again. Each spec has its own sub-folder (its data directory and a
/// description of what was generated, written last so a half-made library is never reused); a run
/// gets a copy, so what the server writes at start (settings, health rows) never reaches the cache.
/// </summary>
internal static class ScaleLibraryCache
{
    private const string DescriptionFile = "library.json";
    private const string DataFolder = "data";

    /// <summary>Puts the library of <paramref name="spec"/> into <paramref name="dataDirectory"/>: a copy of the cached one, made (and cached) first when there is none.</summary>
    public static async Task<(ScaleLibraryInfo Info, bool Reused)> CopyAsync(
        string cacheDirectory, string dataDirectory, ScaleLibrarySpec spec, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(spec);
        var folder = Path.Combine(Path.GetFullPath(cacheDirectory), Key(spec));
        var description = Path.Combine(folder, DescriptionFile);
        var cachedData = Path.Combine(folder, DataFolder);
        var reused = File.Exists(description);
        ScaleLibraryInfo info;
        if (reused)
        {
            await using var stream = File.OpenRead(description);
            var stored = await JsonSerializer.DeserializeAsync<Stored>(stream, cancellationToken: cancellationToken)
                ?? throw new InvalidDataException($"{description} is empty.");
            info = stored.ToInfo(spec);
        }
        else
        {
            if (Directory.Exists(folder))
                Directory.Delete(folder, recursive: true);
            Directory.CreateDirectory(cachedData);
            info = await ScaleLibrary.GenerateAsync(cachedData, spec, cancellationToken);
            await using var stream = File.Create(description);
            await JsonSerializer.SerializeAsync(stream, Stored.From(info), cancellationToken: cancellationToken);
        }

        foreach (var file in Directory.EnumerateFiles(cachedData))
        {
            cancellationToken.ThrowIfCancellationRequested();
            File.Copy(file, Path.Combine(dataDirectory, Path.GetFileName(file)), overwrite: true);
        }

        return (info, reused);
    }

    // The schema is part of the key: a library cached before a migration would be migrated by the
    // server at its start, and that start (and what the migration wrote) would be measured.
    private static string Key(ScaleLibrarySpec spec) => string.Join('-', new[]
        { spec.Jobs, spec.FilesPerJob, spec.FolderSize, spec.Queued, spec.VideoSegments, spec.Seed }.Select(v => v.ToString(CultureInfo.InvariantCulture))
        .Append(LatestMigration));

    private static string LatestMigration => typeof(NzbDavDbContext).Assembly.GetTypes()
        .Select(t => t.GetCustomAttribute<MigrationAttribute>()?.Id)
        .Where(id => id is not null)
        .Max(StringComparer.Ordinal)!;

    private sealed record Stored(
        int Completed, int Failed, int Queued, long Directories, long Files, long LayoutBytes, double GenerateSeconds, string? SampleJobFolder,
        Dictionary<string, int> FolderJobs, Dictionary<string, int> HistoryJobs)
    {
        public static Stored From(ScaleLibraryInfo info) => new(
            info.Completed, info.Failed, info.Queued, info.Directories, info.Files, info.LayoutBytes, info.GenerateTime.TotalSeconds,
            info.SampleJobFolder, info.FolderJobs, info.HistoryJobs);

        public ScaleLibraryInfo ToInfo(ScaleLibrarySpec spec)
        {
            var info = new ScaleLibraryInfo
            {
                Spec = spec,
                Directories = Directories,
                Files = Files,
                LayoutBytes = LayoutBytes,
                GenerateTime = TimeSpan.FromSeconds(GenerateSeconds),
                SampleJobFolder = SampleJobFolder,
            };
            info.Restore(Completed, Failed, Queued, FolderJobs, HistoryJobs);
            return info;
        }
    }
}

namespace NzbDav.Tools.Testing.Scale;

/// <summary>What <c>--test-scale</c> was asked to do, as parsed by <see cref="ScaleArguments"/>.</summary>
public sealed record ScaleOptions
{
    /// <summary>The library sizes, in jobs, measured one after another (each in a fresh data directory). Default 1,000, 10,000 and 100,000.</summary>
    public IReadOnlyList<int> Jobs { get; init; } = [1_000, 10_000, 100_000];

    /// <summary>Files of each completed job (one video and its companions). Default 10, so 100,000 jobs hold about 1,000,000 files.</summary>
    public int FilesPerJob { get; init; } = 10;

    /// <summary>Completed jobs per category folder; the biggest folder has this many children (or all jobs, when fewer). Default 10,000.</summary>
    public int FolderSize { get; init; } = 10_000;

    /// <summary>Jobs still in the queue (the SAB <c>queue</c> call lists them all). Default 20.</summary>
    public int Queued { get; init; } = 20;

    /// <summary>Articles of each video file, i.e. message-ids in its layout. Default 400.</summary>
    public int VideoSegments { get; init; } = 400;

    /// <summary>Timed calls of each kind per size, after one untimed first call. Default 50.</summary>
    public int Samples { get; init; } = 50;

    /// <summary>Timed PROPFINDs of <c>/.ids/</c> (every library file) per size; 0 skips them. Default 3.</summary>
    public int IdsSamples { get; init; } = 3;

    /// <summary>The server executable (an <c>NzbDav.dll</c>) to measure; default this build's own.</summary>
    public string? ServerPath { get; init; }

    /// <summary><c>--Section:Key=value</c> arguments, for the server's configuration (and this command's logging).</summary>
    public IReadOnlyList<string> ConfigurationArguments { get; init; } = [];

    /// <summary>A folder that keeps each generated library and copies it into later runs instead of generating it again; null generates every time.</summary>
    public string? LibraryCache { get; init; }

    /// <summary>Leave each size's data directory (its database) in place instead of deleting it, and log where it is.</summary>
    public bool Keep { get; init; }

    /// <summary>Print the report as one JSON object on the last line as well.</summary>
    public bool Json { get; init; }

    /// <summary>Only print the usage text.</summary>
    public bool Help { get; init; }
}
